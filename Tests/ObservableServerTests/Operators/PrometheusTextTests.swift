import Foundation
import Testing

@testable import ObservableCounters
@testable import ObservableHTTP
@testable import ObservableServer

/// `/metrics` text read back by `prometheus_client`'s parser, which shares nothing with ours.
@Suite("Prometheus exposition", .timeLimit(.minutes(1)))
struct PrometheusTextTests {
  /// One sample as the parser read it.
  struct ParsedSample {
    var family: String
    var type: String
    var help: String
    var name: String
    var labels: [String: String]
    var value: Double
  }

  static func parse(_ text: String) throws -> [ParsedSample] {
    let output = try PythonScript(name: "prometheus_parse.py")
      .run(input: Data(text.utf8), importing: "prometheus_client")
    let families = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    return try families.flatMap { family in
      let samples = try #require(family["samples"] as? [[String: Any]])
      return try samples.map { sample in
        ParsedSample(
          family: try #require(family["name"] as? String),
          type: try #require(family["type"] as? String),
          help: try #require(family["help"] as? String),
          name: try #require(sample["name"] as? String),
          labels: try #require(sample["labels"] as? [String: String]),
          value: (sample["value"] as? Double) ?? Double(sample["value"] as? String ?? "") ?? -1)
      }
    }
  }

  /// Counters with a different value in every field, so a metric wired to the wrong field
  /// shows.
  static func busyCounters() -> ServerCounters {
    let counters = ServerCounters()
    counters.update {
      $0.connections = 3
      $0.connectionsTotal = 17
      $0.subscriptions = 5
      $0.subscribesTotal = 23
      $0.disconnectsTotal = 14
      $0.droppedTotal = 29
      $0.slowConsumersTotal = 2
      $0.bytesIn = 4_100_000_007
      $0.bytesOut = 9_876_543_211
      $0.bytesOutUncompressed = 12_345_678_913
    }
    counters.published(11, receivers: 4)
    return counters
  }

  @Test func everyServerMetricAgreesWithTheStatsValue() throws {
    let counters = Self.busyCounters()
    let stats = try #require(
      try JSONSerialization.jsonObject(with: Data(counters.encodedJSON())) as? [String: Int])
    let samples = try Self.parse(ServerMetrics.exposition(counters))
    let uptimeAfter = counters.uptimeSeconds
    // The stats keys whose metric name is not simply the prefix plus the key.
    let renamed = [
      "bytes_in": "received_bytes_total", "bytes_out": "sent_bytes_total",
      "bytes_out_uncompressed": "sent_uncompressed_bytes_total", "uptime_s": "uptime_seconds",
      "connections": "connections_open", "websocket_connections": "websocket_connections_open",
      "tls_connections": "tls_connections_open",
    ]
    for (key, value) in stats {
      let name = ServerMetrics.prefix + (renamed[key] ?? key)
      // A family with labels (TLS handshake failures by kind) sums to the stats figure.
      let family = samples.filter { $0.name == name }
      let sample = family.first
      let sum = family.isEmpty ? nil : family.reduce(0) { $0 + $1.value }
      if key == "uptime_s" {
        // The clock moves on between the two readings.
        #expect((Double(value)...Double(uptimeAfter)).contains(sum ?? -1), "\(name)")
      } else {
        #expect(sum == Double(value), "\(name) for stats \(key)")
      }
      #expect(sample?.help.isEmpty == false, "\(name) has help")
    }
    #expect(
      Set(samples.map(\.name)).count == stats.count + 1, "one metric per stats field, and info")
    let info = samples.first { $0.name == ServerMetrics.prefix + "info" }
    #expect(info?.labels == ["version": ObservableServer.version] && info?.value == 1)
  }

  @Test func countersEndInTotalAndTheCurrentFiguresAreGauges() throws {
    let samples = try Self.parse(ServerMetrics.exposition(Self.busyCounters()))
    for sample in samples {
      #expect(sample.name.hasPrefix(ServerMetrics.prefix), "\(sample.name)")
      #expect((sample.type == "counter") == sample.name.hasSuffix("_total"), "\(sample.name)")
    }
    let gauges = Set(samples.filter { $0.type == "gauge" }.map(\.name))
    #expect(
      gauges.isSuperset(of: [
        "observable_server_connections_open", "observable_server_subscriptions",
      ]))
  }

  @Test func theOrderIsStableAndEachFamilyHasHelpThenType() {
    let counters = Self.busyCounters()
    let first = ServerMetrics.exposition(counters)
    #expect(first == ServerMetrics.exposition(counters))
    let lines = first.split(separator: "\n")
    // A family with labels has a sample per label value; the name is before the labels.
    let names = lines.filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: " ")[0].split(separator: "{")[0]
    }
    #expect(Set(names).count == ServerMetrics.families(counters.snapshot, uptimeSeconds: 0).count)
    for (index, line) in lines.enumerated() where line.hasPrefix("# HELP ") {
      let name = line.split(separator: " ")[2]
      #expect(lines[index + 1].hasPrefix("# TYPE \(name) "))
    }
  }

  @Test func labelValuesAndHelpWithAwkwardCharactersReadBackExactly() throws {
    let awkward = ["tcp", "say \"hi\"", "back\\slash", "two\nlines", "é 🎉", "", "a=b,c}"]
    let family = MetricFamily(
      name: "demo_total", help: "Help with a \\ backslash\nand a newline.", kind: .counter,
      samples: awkward.enumerated().map { index, value in
        MetricFamily.Sample(labels: [("transport", value), ("n", "\(index)")], value: 1)
      })
    let samples = try Self.parse(PrometheusText.encode([family]))
    #expect(samples.map { $0.labels["transport"] } == awkward)
    #expect(samples.allSatisfy { $0.help == family.help })
  }

  @Test func badNamesAreMadeValidAndSpecialValuesWritten() throws {
    let families = [
      MetricFamily.single("9 bad-name", .gauge, "h", 1),
      MetricFamily(
        name: "specials", help: "h", kind: .gauge,
        samples: [
          .init(labels: [("__reserved", "x"), ("bad-label", "y")], value: .infinity),
          .init(labels: [("k", "neg")], value: -.infinity),
          .init(labels: [("k", "n")], value: 0.25),
        ]),
    ]
    let samples = try Self.parse(PrometheusText.encode(families))
    #expect(samples.map(\.name) == ["__bad_name", "specials", "specials", "specials"])
    #expect(samples[1].labels == ["x__reserved": "x", "bad_label": "y"])
    #expect(samples.map(\.value).suffix(3) == [.infinity, -.infinity, 0.25])
  }
}
