/// Pattern subscriptions: what many patterns cost a publish that none of them matches, and
/// what a publish costs that matches k of them.
///
/// The unmatched row alternates, on one server, rounds with no patterns and rounds with
/// `patterns` of them (`p<i>.*.x`, spread over a few connections, subscribed and unsubscribed
/// pipelined), and compares the median publish rates to `p7.q.y`, which shares the patterns'
/// first tokens but matches none. A matching row subscribes the same background patterns, then
/// k distinct patterns that all match `h.a.b.c.d.e.f.g` on one receiving connection, and
/// publishes to that name: each publish must deliver exactly k lines.
struct PatternsScenario: Scenario {
  /// What a row measures.
  enum Kind: Sendable {
    case unmatched
    case matching(Int)
  }

  let kind: Kind
  /// Background patterns, none matching the published names.
  let patterns: Int
  /// Publishes per measured run.
  let publishes: Int
  let rounds = 5
  let subscriberConnections = 4
  static let unmatchedName = "p7.q.y"
  static let hotName = "h.a.b.c.d.e.f.g"

  var name: String { "patterns" }

  var parameter: String {
    switch kind {
    case .unmatched: "unmatched publish, 0 vs \(Format.grouped(patterns)) patterns"
    case .matching(let k): "publish matching \(k), \(Format.grouped(patterns)) patterns"
    }
  }

  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    let holders = try (0..<subscriberConnections).map { _ throws(BenchError) in
      try ClientConnection(to: server.address, readCapacity: 256 * 1024)
    }
    let publisher = try ClientConnection(to: server.address, readCapacity: 256 * 1024)
    try Handshake.run(holders + [publisher], deadline: deadline) { _ in nil }
    switch kind {
    case .unmatched:
      return try unmatched(server: server, holders: holders, publisher: publisher, deadline)
    case .matching(let k):
      return try matching(k, server: server, holders: holders, publisher: publisher, deadline)
    }
  }

  private func unmatched(
    server: ServerUnderTest, holders: [ClientConnection], publisher: ClientConnection,
    _ deadline: Deadline
  ) throws(BenchError) -> ResultRow {
    let meter = CPUMeter(serverPID: server.pid)
    var without: [Phase] = []
    var with: [Phase] = []
    var subscribeRates: [Double] = []
    var problems: [String] = []
    for _ in 0..<rounds {
      let name = Self.unmatchedName
      without.append(try publishPhase(to: name, publisher, server, deadline, &problems))
      subscribeRates.append(try background("subscribe", holders, deadline, &problems))
      with.append(try publishPhase(to: name, publisher, server, deadline, &problems))
      _ = try background("unsubscribe", holders, deadline, &problems)
    }
    let base = Self.median(without.map(\.rate))
    let loaded = Self.median(with.map(\.rate))
    let ratio = base > 0 ? loaded / base : 0
    // Server CPU per publish depends far less on what else the machine runs than rates do:
    // with other builds running, rates of identical rounds differed by a factor of two.
    let cpuWithout = Self.median(without.compactMap(\.serverMicroseconds))
    let cpuWith = Self.median(with.compactMap(\.serverMicroseconds))
    let cpuText =
      server.pid == nil
      ? ""
      : "; server CPU \(Format.decimal(cpuWithout)) vs \(Format.decimal(cpuWith)) µs/publish"
        // Fewer publishes than a 10 ms tick of CPU time leave nothing to compare.
        + (cpuWithout > 0 ? " (\(Format.decimal(cpuWith / cpuWithout * 100)) %)" : "")
    return ResultRow(
      scenario: name, parameter: parameter,
      result: "\(Format.rate(base)) publishes/s without, \(Format.rate(loaded)) with "
        + "(\(Format.decimal(ratio * 100)) %)\(cpuText); "
        + "\(Format.rate(Self.median(subscribeRates))) pattern subscribes/s",
      problems: problems, cpu: meter.finish(),
      metrics: [
        "publishes_per_s_without": base, "publishes_per_s_with": loaded, "ratio": ratio,
        "server_us_per_publish_without": cpuWithout, "server_us_per_publish_with": cpuWith,
        "server_cpu_ratio": cpuWithout > 0 ? cpuWith / cpuWithout : 0,
        "subscribes_per_s": Self.median(subscribeRates), "patterns": Double(patterns),
      ])
  }

  /// One measured run of publishes.
  private struct Phase {
    var rate: Double
    /// Server CPU time per publish, when the server is the benchmark's child.
    var serverMicroseconds: Double?
  }

  private func matching(
    _ k: Int, server: ServerUnderTest, holders: [ClientConnection],
    publisher: ClientConnection, _ deadline: Deadline
  ) throws(BenchError) -> ResultRow {
    var problems: [String] = []
    _ = try background("subscribe", holders, deadline, &problems)
    let receiver = try ClientConnection(to: server.address, readCapacity: 256 * 1024)
    try Handshake.run([receiver], deadline: deadline) { _ in nil }
    let subscribed = try PipelinedRequests().run(on: receiver, total: k, deadline: deadline) {
      first, count in
      Array(
        (first..<first + count).map { LineShape.subscribe(Self.matchingPattern($0)) + "\n" }
          .joined().utf8)
    }
    Self.note(subscribed, "subscribing the matching patterns", &problems)
    let meter = CPUMeter(serverPID: server.pid)
    let line = Array(#"{"op":"publish","stream":"\#(Self.hotName)","value":1}"#.utf8) + [0x0A]
    let outcome = try PipelinedRequests(perBatch: max(10, 1000 / k)).run(
      on: publisher, total: publishes, receivers: [receiver], expectedDeliveries: publishes * k,
      deadline: deadline
    ) { _, count in Array(repeatElement(line, count: count).joined()) }
    Self.note(outcome, "publishing", &problems)
    if outcome.deliveries != publishes * k {
      problems.append("\(outcome.deliveries) deliveries, expected \(publishes * k)")
    }
    let rate = Double(publishes) / outcome.seconds
    let shares = meter.finish()
    // Server CPU per publish, which grows with k whatever else the machine runs.
    let serverMicroseconds = shares.server.map { $0 / 100 / rate * 1e6 }
    return ResultRow(
      scenario: name, parameter: parameter,
      result: "\(Format.rate(rate)) publishes/s, \(Format.rate(rate * Double(k))) deliveries/s"
        + (serverMicroseconds.map { "; server CPU \(Format.decimal($0)) µs/publish" } ?? ""),
      problems: problems, cpu: shares,
      metrics: [
        "publishes_per_s": rate, "deliveries_per_s": rate * Double(k), "k": Double(k),
        "patterns": Double(patterns), "server_us_per_publish": serverMicroseconds ?? 0,
      ])
  }

  /// The rate, and the server's CPU time per publish, of `publishes` publishes to `name`.
  private func publishPhase(
    to name: String, _ publisher: ClientConnection, _ server: ServerUnderTest,
    _ deadline: Deadline, _ problems: inout [String]
  ) throws(BenchError) -> Phase {
    let line = Array(#"{"op":"publish","stream":"\#(name)","value":1}"#.utf8) + [0x0A]
    let meter = CPUMeter(serverPID: server.pid)
    // A deep pipeline, so that the server rather than wake-ups between batches sets the pace.
    let pipeline = PipelinedRequests(perBatch: 1000, batchesInFlight: 16)
    let outcome = try pipeline.run(on: publisher, total: publishes, deadline: deadline) {
      _, count in Array(repeatElement(line, count: count).joined())
    }
    let share = meter.finish().server
    Self.note(outcome, "publishing to \(name)", &problems)
    return Phase(
      rate: Double(publishes) / outcome.seconds,
      serverMicroseconds: share.map { $0 / 100 * outcome.seconds / Double(publishes) * 1e6 })
  }

  /// Subscribes (or unsubscribes) the background patterns, spread over `holders` one after
  /// another; returns the requests per second.
  private func background(
    _ op: String, _ holders: [ClientConnection], _ deadline: Deadline,
    _ problems: inout [String]
  ) throws(BenchError) -> Double {
    var seconds = 0.0
    for (index, holder) in holders.enumerated() {
      let share = (patterns + holders.count - 1 - index) / holders.count
      let outcome = try PipelinedRequests().run(on: holder, total: share, deadline: deadline) {
        first, count in
        Array(
          (first..<first + count).map {
            #"{"op":"\#(op)","stream":"p\#($0 * holders.count + index).*.x"}"# + "\n"
          }.joined().utf8)
      }
      Self.note(outcome, "\(op) of background patterns", &problems)
      seconds += outcome.seconds
    }
    return seconds > 0 ? Double(patterns) / seconds : 0
  }

  /// The `index`th of 128 distinct patterns that match ``hotName``: each of its seven tokens
  /// after the first is itself or `*`, as the bits of `index` say.
  static func matchingPattern(_ index: Int) -> String {
    let tokens = hotName.split(separator: ".").map(String.init)
    return
      ([tokens[0]]
      + (1..<tokens.count).map { index >> ($0 - 1) & 1 == 1 ? "*" : tokens[$0] })
      .joined(separator: ".")
  }

  private static func note(
    _ outcome: PipelinedRequests.Outcome, _ what: String, _ problems: inout [String]
  ) {
    if outcome.errors > 0 {
      problems.append("\(what): \(outcome.errors) errors, first: \(outcome.firstError ?? "?")")
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }
}
