import Glibc

/// Churn: over one connection, `subscribe x` / `unsubscribe x` pairs as fast as the server
/// answers them, then a check that every unsubscribe ran its disconnect exactly once.
///
/// Requests are pipelined in large batches with a bounded number of answers outstanding, so the
/// server never holds more than a few hundred kilobytes of replies for the client. The check
/// reads the server's own `stats` stream on a second connection: `disconnects_total` must grow
/// by exactly the number of pairs.
struct ChurnScenario: Scenario {
  let pairs: Int
  let pairsPerBatch = 1000
  /// Batches written but not yet fully answered.
  let batchesInFlight = 4
  static let topic = "churn.x"

  var name: String { "churn" }
  var parameter: String { "1 connection" }

  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    let stats = try StatsFeed(address: server.address, token: nil, deadline: deadline)
    let churn = try ClientConnection(to: server.address, readCapacity: 256 * 1024)
    try Handshake.run([churn], deadline: deadline) { _ in nil }
    // Right after the reply comes the first value, computed when the subscription started.
    let baseline = try stats.next(deadline: deadline)

    let meter = CPUMeter(serverPID: server.pid)
    let pair = Array(
      """
      {"op":"subscribe","stream":"\(Self.topic)"}
      {"op":"unsubscribe","stream":"\(Self.topic)"}

      """.utf8)
    let batch = Array([[UInt8]](repeating: pair, count: pairsPerBatch).joined())
    let subscribeOK = LineShape.okOpPrefix + Array("subscribe\"".utf8)
    let unsubscribeOK = LineShape.okOpPrefix + Array("unsubscribe\"".utf8)
    let requests = pairs * 2
    var written = 0
    var answered = 0
    var subscribed = 0
    var unsubscribed = 0
    var errors = 0
    var firstError: String?
    var descriptor = pollfd(fd: churn.descriptor, events: 0, revents: 0)
    let started = MonotonicTime.now()
    while answered < requests {
      try deadline.check("churning: \(answered) of \(requests) answers")
      if !churn.hasPendingOutput, written < requests,
        written - answered <= (batchesInFlight - 1) * pairsPerBatch * 2
      {
        let batchPairs = min(pairsPerBatch, pairs - written / 2)
        churn.queue(
          batchPairs == pairsPerBatch ? batch : Array(batch[..<(batchPairs * pair.count)]))
        written += batchPairs * 2
        try churn.flush()
      }
      descriptor.events = churn.pollEvents
      let ready = poll(&descriptor, 1, deadline.pollTimeout())
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      if descriptor.revents & Int16(POLLOUT) != 0 { try churn.flush() }
      guard descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
      if case .closed = try churn.read() {
        throw .unexpected("the server closed the churn connection")
      }
      while let line = churn.nextLine() {
        answered += 1
        if line.hasPrefix(subscribeOK) {
          subscribed += 1
        } else if line.hasPrefix(unsubscribeOK) {
          unsubscribed += 1
        } else {
          errors += 1
          if firstError == nil { firstError = line.text }
        }
      }
    }
    let elapsed = MonotonicTime.seconds(from: started, to: MonotonicTime.now())
    let cpu = meter.finish()

    let final = try stats.settled(deadline: deadline)
    let disconnects = final.disconnectsTotal - baseline.disconnectsTotal
    let rate = elapsed > 0 ? Double(pairs) / elapsed : 0
    var problems: [String] = []
    if disconnects != pairs {
      problems.append("disconnects_total grew by \(disconnects), expected \(pairs)")
    }
    if final.subscriptions != baseline.subscriptions {
      problems.append(
        "subscriptions went from \(baseline.subscriptions) to \(final.subscriptions)")
    }
    if subscribed != pairs || unsubscribed != pairs {
      problems.append("answers: \(subscribed) subscribe ok, \(unsubscribed) unsubscribe ok")
    }
    if errors > 0 { problems.append("\(errors) errors, first: \(firstError ?? "?")") }
    return ResultRow(
      scenario: name, parameter: parameter,
      result: "\(Format.grouped(Int(rate.rounded()))) subscribe+unsubscribe pairs/s"
        + " (disconnects counted: \(disconnects) of \(pairs))",
      problems: problems,
      cpu: cpu,
      metrics: [
        "pairs": Double(pairs), "elapsed_s": elapsed, "pairs_per_s": rate,
        "disconnects_counted": Double(disconnects), "errors": Double(errors),
      ])
  }
}
