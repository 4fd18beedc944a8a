import Foundation
import Testing

@testable import ObservableHTTP
@testable import ObservableServer

/// `/metrics` read as Prometheus reads it: OpenMetrics when asked for, where a counter `x_total`
/// is the family `x`, so no other family may be named `x`.
@Suite("OpenMetrics exposition", .timeLimit(.minutes(1)))
struct OpenMetricsTests {
  /// Family name to type, and every sample name, as prometheus_client's parser read them.
  static func read(_ arguments: [String], input: String = "") throws -> (
    families: [String: String], familyCount: Int, samples: Set<String>
  ) {
    let output = try PythonScript(name: "prometheus_parse.py")
      .run(arguments, input: Data(input.utf8), importing: "prometheus_client")
    let parsed = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    var families: [String: String] = [:]
    var samples: Set<String> = []
    for family in parsed {
      families[family["name"] as? String ?? ""] = family["type"] as? String
      for sample in family["samples"] as? [[String: Any]] ?? [] {
        samples.insert(sample["name"] as? String ?? "")
      }
    }
    return (families, parsed.count, samples)
  }

  @Test func aScrapeAskingForOpenMetricsGetsItAndItParses() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let url = "http://127.0.0.1:\(server.httpPort)/metrics"
    // Fails with the parser's "Clashing name" if a gauge shares a counter's family name.
    let read = try Self.read(["--openmetrics", "--url", url])
    #expect(read.families.count == read.familyCount, "no family name twice")
    #expect(read.families["observable_server_connections"] == "counter")
    #expect(read.samples.contains("observable_server_connections_total"))
    #expect(read.families["observable_server_connections_open"] == "gauge")
    #expect(read.families["observable_server_websocket_connections_open"] == "gauge")
  }

  @Test func theTextFormatHasNoFamilyNameTwiceEither() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    // prometheus_client names a counter's family without `_total` in this format too.
    let read = try Self.read(["--url", "http://127.0.0.1:\(server.httpPort)/metrics"])
    #expect(read.families.count == read.familyCount, "\(read.families.keys.sorted())")
  }

  @Test func theClusterFamiliesAndEveryServerFamilyParseTogether() throws {
    let counters = PrometheusTextTests.busyCounters()
    let extra = [MetricFamily.single("observable_server_cluster_values_in_total", .counter, "x", 4)]
    let text = ServerMetrics.exposition(counters, format: .openMetrics, extra: extra)
    #expect(text.hasSuffix("# EOF\n"))
    let read = try Self.read(["--openmetrics"], input: text)
    #expect(
      read.familyCount == ServerMetrics.families(counters.snapshot, uptimeSeconds: 0).count + 1)
    #expect(read.families["observable_server_cluster_values_in"] == "counter")
  }

  @Test func theAcceptHeaderChoosesTheFormat() {
    #expect(MetricsFormat(accept: nil) == .prometheus)
    #expect(MetricsFormat(accept: "text/plain;version=0.0.4") == .prometheus)
    #expect(
      MetricsFormat(accept: "application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1")
        == .openMetrics)
  }
}
