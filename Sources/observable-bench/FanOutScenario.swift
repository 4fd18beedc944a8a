import Glibc
import Histogram

/// Fan-out throughput: one publisher, N subscribers of one topic, messages published as fast
/// as the slowest subscriber allows.
///
/// The publisher stays at most `window` messages ahead of the slowest subscriber. Without that
/// bound a flat-out publisher fills every socket buffer, latency becomes the depth of those
/// buffers, and a subscriber that falls far enough behind is closed as a slow consumer; with
/// it, throughput is the same and nothing may be dropped, so every subscriber must receive
/// every message, in order.
struct FanOutScenario: Scenario {
  /// The sizes of one row; `--messages`, `--window` and `--payload-bytes` set them.
  struct Configuration: Sendable {
    var subscribers: Int
    var messages: Int
    var window: Int
    var payload: Payload
    /// How subscribers connect; the publisher always uses TCP.
    var transport: BenchTransport = .tcp
    /// The largest publisher write.
    var batchBytes = 64 * 1024
    /// How long without any progress before the run is declared stalled.
    var stallSeconds = 5.0
  }

  let configuration: Configuration
  static let stream = "bench"

  var name: String { "fan-out" }

  var parameter: String {
    let count = configuration.subscribers
    let suffix =
      [.webSocket: " (WebSocket)", .deflate: " (deflate)"][configuration.transport] ?? ""
    return "\(count) subscriber\(count == 1 ? "" : "s")\(suffix)"
  }

  /// Runs the scenario against `server` and returns its table row.
  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    // Large reads while a whole window fits, smaller ones when thousands of subscribers would
    // otherwise take gigabytes of buffers.
    let readCapacity = max(16 * 1024, min(256 * 1024, (32 << 20) / configuration.subscribers))
    let subscribers = try (0..<configuration.subscribers).map { _ throws(BenchError) in
      try connectSubscriber(server, readCapacity: readCapacity, deadline: deadline)
    }
    let publisher = try ClientConnection(to: server.address)
    try Handshake.run(subscribers, deadline: deadline) { _ in LineShape.subscribe(Self.stream) }
    if configuration.transport == .deflate {
      try Self.startCompression(subscribers, deadline: deadline)
    }
    try Handshake.run([publisher], deadline: deadline) { _ in nil }

    let meter = CPUMeter(serverPID: server.pid)
    var run = Run(configuration: configuration, subscribers: subscribers, publisher: publisher)
    try run.measure(deadline: deadline)
    return run.row(cpu: meter.finish(), name: name, parameter: parameter)
  }

  /// The state of one measured run, on the benchmark's one thread.
  private struct Run {
    let configuration: Configuration
    let subscribers: [ClientConnection]
    let publisher: ClientConnection
    let publishLine: PublishLine
    let deliveryLine: DeliveryLine
    var tallies: [SequenceTally]
    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
    var published: UInt64 = 0
    var acknowledged = 0
    var errors = 0
    var firstError: String?
    var unrecognised = 0
    var closedSubscribers = 0
    var stalled = false
    var timedOut = false
    var started: UInt64 = 0
    var lastPublished: UInt64 = 0
    var lastDelivery: UInt64 = 0

    init(configuration: Configuration, subscribers: [ClientConnection], publisher: ClientConnection)
    {
      self.configuration = configuration
      self.subscribers = subscribers
      self.publisher = publisher
      publishLine = PublishLine(stream: FanOutScenario.stream, payload: configuration.payload)
      deliveryLine = DeliveryLine(stream: FanOutScenario.stream, payload: configuration.payload)
      tallies = Array(repeating: SequenceTally(), count: subscribers.count)
    }

    var total: UInt64 { UInt64(configuration.messages) }

    mutating func measure(deadline: Deadline) throws(BenchError) {
      var descriptors = [pollfd(fd: publisher.descriptor, events: Int16(POLLIN), revents: 0)]
      for subscriber in subscribers {
        descriptors.append(pollfd(fd: subscriber.descriptor, events: Int16(POLLIN), revents: 0))
      }
      let bound = PublishWindow(
        window: configuration.window, lineBytes: publishLine.length,
        batchBytes: configuration.batchBytes, total: total)
      started = MonotonicTime.now()
      lastDelivery = started
      lastPublished = started
      var lastProgress = started
      while !finished {
        var canPublishMore = false
        if !publisher.hasPendingOutput, published < total {
          let count = bound.nextBatch(
            published: published, slowest: tallies.lazy.map(\.next).min() ?? published)
          if count > 0 {
            publishBatch(count)
            if try publisher.flush() { lastPublished = MonotonicTime.now() }
            canPublishMore = !publisher.hasPendingOutput && published < total
          }
        }
        descriptors[0].events = publisher.pollEvents
        let timeout = canPublishMore ? 0 : deadline.pollTimeout()
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
        let now = MonotonicTime.now()
        if ready > 0 {
          lastProgress = now
          try handlePublisher(descriptors[0].revents)
          for index in subscribers.indices where descriptors[index + 1].revents != 0 {
            try receive(subscriber: index)
          }
        } else if !canPublishMore,
          MonotonicTime.seconds(from: lastProgress, to: now) > configuration.stallSeconds
        {
          stalled = true
          return
        }
        if deadline.hasPassed {
          timedOut = true
          return
        }
      }
    }

    /// Every subscriber has every message and every publish has its answer, or a subscriber is
    /// gone, so waiting longer cannot change the outcome.
    var finished: Bool {
      if closedSubscribers > 0 { return true }
      guard published == total, acknowledged + errors == configuration.messages else {
        return false
      }
      return tallies.allSatisfy { $0.next >= total }
    }

    mutating func publishBatch(_ count: UInt64) {
      let line = publishLine
      let first = published
      // One timestamp per write: every line in it leaves at the same moment.
      let now = MonotonicTime.now()
      publisher.queue(byteCount: Int(count) * line.length) { buffer in
        for offset in 0..<Int(count) {
          line.write(
            sequence: first + UInt64(offset), time: now, to: buffer + offset * line.length)
        }
      }
      published += count
    }

    mutating func handlePublisher(_ events: Int16) throws(BenchError) {
      if events & Int16(POLLOUT) != 0, try publisher.flush() {
        lastPublished = MonotonicTime.now()
      }
      guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
      if case .closed = try publisher.read() {
        throw .unexpected("the server closed the publisher's connection")
      }
      while let line = publisher.nextLine() {
        if line.hasPrefix(LineShape.okTrue) {
          acknowledged += 1
        } else if line.hasPrefix(LineShape.okFalse) {
          noteError(line)
        }
      }
    }

    mutating func receive(subscriber index: Int) throws(BenchError) {
      let connection = subscribers[index]
      // A compressed read may inflate to more than the line buffer holds: read until it is all in.
      repeat {
        let outcome = try connection.read()
        let now = MonotonicTime.now()
        if case .closed = outcome {
          closedSubscribers += 1
          noteError(nil, "the server closed subscriber \(index)'s connection")
          return
        }
        var tally = tallies[index]
        while let line = connection.nextLine() {
          if let delivery = deliveryLine.read(line) {
            tally.record(delivery.sequence)
            latency.record(now > delivery.time ? now - delivery.time : 0)
          } else if line.hasPrefix(LineShape.okFalse) {
            noteError(line)
          } else {
            unrecognised += 1
          }
        }
        tallies[index] = tally
        lastDelivery = now
      } while connection.hasPendingInput
    }

    mutating func noteError(_ line: UnsafeRawBufferPointer?, _ text: String? = nil) {
      errors += 1
      if firstError == nil { firstError = text ?? line?.text }
    }

    func row(cpu: CPUMeter.Shares, name: String, parameter: String) -> ResultRow {
      let delivered = tallies.reduce(0) { $0 + $1.received }
      let lost = tallies.reduce(0) { $0 + $1.lost(of: published) }
      let duplicated = tallies.reduce(0) { $0 + $1.duplicated }
      let elapsed = MonotonicTime.seconds(from: started, to: lastDelivery)
      let publishElapsed = MonotonicTime.seconds(from: started, to: lastPublished)
      let deliveredRate = elapsed > 0 ? Double(delivered) / elapsed : 0
      let publishRate = publishElapsed > 0 ? Double(published) / publishElapsed : 0
      let megabytes = deliveredRate * Double(configuration.payload.size) / 1e6
      var problems: [String] = []
      if lost > 0 { problems.append("lost \(lost)") }
      if duplicated > 0 { problems.append("duplicated \(duplicated)") }
      if errors > 0 { problems.append("\(errors) errors, first: \(firstError ?? "?")") }
      if unrecognised > 0 { problems.append("\(unrecognised) unrecognised lines") }
      if stalled { problems.append("stalled: nothing arrived for \(configuration.stallSeconds) s") }
      if timedOut { problems.append("timed out") }
      let count = configuration.subscribers
      let ratio = FanOutScenario.compressionRatio(subscribers)
      let cost = cpu.serverSeconds.map { $0 * 1e9 / Double(max(delivered, 1)) }
      return ResultRow(
        scenario: name, parameter: parameter,
        result: "\(Format.rate(deliveredRate)) msgs/s delivered (lost \(lost), dup \(duplicated)),"
          + " \(Format.rate(publishRate)) published/s, \(Format.decimal(megabytes)) MB/s"
          + (ratio.map { ", compressed \(Format.decimal($0)):1" } ?? "")
          + (cost.map { ", server \(Format.decimal($0)) ns/msg" } ?? ""),
        problems: problems,
        cpu: cpu,
        metrics: [
          "subscribers": Double(count), "messages": Double(configuration.messages),
          "window": Double(configuration.window),
          "payload_bytes": Double(configuration.payload.size),
          "published": Double(published), "delivered": Double(delivered),
          "lost": Double(lost), "dup": Double(duplicated), "errors": Double(errors),
          "elapsed_s": elapsed, "delivered_rate": deliveredRate, "pub_rate": publishRate,
          "delivered_mbps": megabytes,
          "wire_mbps": elapsed > 0
            ? Double(subscribers.reduce(0) { $0 + $1.bytesRead }) / elapsed / 1e6 : 0,
          "p50_us": latency.microseconds(at: 50), "p99_us": latency.microseconds(at: 99),
          "max_us": Double(latency.max) / 1000, "compression_ratio": ratio ?? 1,
          "server_ns_per_msg": cost ?? 0,
        ])
    }
  }
}

extension Histogram<UInt64> {
  /// The value at `percentile`, nanoseconds recorded, in microseconds.
  func microseconds(at percentile: Double) -> Double {
    Double(valueAtPercentile(percentile)) / 1000
  }
}
