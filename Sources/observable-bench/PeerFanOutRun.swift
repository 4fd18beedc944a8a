import Glibc
import PeerWire

/// The state of one measured fan-out run against a compared server, on the benchmark's one
/// thread: the publisher stays at most `window` messages ahead of the slowest subscriber, and
/// each subscriber's payloads are checked for order, loss and duplicates.
struct PeerFanOutRun {
  let subscribers: [PeerConnection]
  let publisher: PeerConnection
  /// Messages to publish, each to reach every subscriber.
  let total: UInt64
  /// Most messages published ahead of the slowest subscriber.
  let window: Int
  let payload: Payload
  /// The protocol's bytes before the payload in one publish.
  let prefix: [UInt8]
  /// One whole publish, payload included, which each publish is patched from.
  let template: [UInt8]
  /// What each subscriber received, by index.
  var tallies: [SequenceTally]
  private(set) var published: UInt64 = 0
  /// When the first publish was queued, and when the latest delivery arrived.
  private(set) var started: UInt64 = 0
  private(set) var lastDelivery: UInt64 = 0
  /// What went wrong, for the row's failure; empty when nothing did.
  private(set) var problems: [String] = []
  private var closed = false
  /// How long without any progress before the run is declared stalled.
  let stallSeconds = 5.0
  /// The largest publisher write.
  let batchBytes = 64 * 1024

  init(
    subscribers: [PeerConnection], publisher: PeerConnection, total: UInt64, window: Int,
    payload: Payload, stream: String
  ) {
    self.subscribers = subscribers
    self.publisher = publisher
    self.total = total
    self.window = window
    self.payload = payload
    let framing = publisher.dialect.publishFraming(topic: stream, payloadBytes: payload.size)
    prefix = framing.prefix
    template = framing.prefix + payload.template + framing.suffix
    tallies = Array(repeating: SequenceTally(), count: subscribers.count)
  }

  /// Deliveries over all subscribers.
  var delivered: Int { tallies.reduce(0) { $0 + $1.received } }
  var lost: UInt64 { tallies.reduce(0) { $0 + $1.lost(of: published) } }
  var duplicated: Int { tallies.reduce(0) { $0 + $1.duplicated } }
  var elapsedSeconds: Double { MonotonicTime.seconds(from: started, to: lastDelivery) }

  /// Publishes and reads until every subscriber has every message, or the run stalls, a
  /// subscriber is closed, or the deadline passes.
  mutating func measure(deadline: Deadline) throws(BenchError) {
    var descriptors = ([publisher] + subscribers).map {
      pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)
    }
    let bound = PublishWindow(
      window: window, lineBytes: template.count, batchBytes: batchBytes, total: total)
    started = MonotonicTime.now()
    lastDelivery = started
    var lastProgress = started
    while !finished {
      var canPublishMore = false
      if !publisher.hasPendingOutput, published < total {
        let count = bound.nextBatch(
          published: published, slowest: tallies.lazy.map(\.next).min() ?? published)
        if count > 0 {
          try publishBatch(count)
          try publisher.flush()
          canPublishMore = !publisher.hasPendingOutput && published < total
        }
      }
      descriptors[0].events = publisher.pollEvents
      for index in subscribers.indices {
        descriptors[index + 1].events = subscribers[index].pollEvents
      }
      let ready = poll(
        &descriptors, nfds_t(descriptors.count), canPublishMore ? 0 : deadline.pollTimeout())
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      let now = MonotonicTime.now()
      if ready > 0 {
        lastProgress = now
        try handle(publisher, events: descriptors[0].revents, subscriber: nil)
        for index in subscribers.indices where descriptors[index + 1].revents != 0 {
          try handle(subscribers[index], events: descriptors[index + 1].revents, subscriber: index)
        }
      } else if !canPublishMore,
        MonotonicTime.seconds(from: lastProgress, to: now) > stallSeconds
      {
        problems.append("stalled: nothing arrived for \(stallSeconds) s")
        return
      }
      if deadline.hasPassed {
        problems.append("timed out")
        return
      }
    }
  }

  /// Every subscriber has every message, or one is gone.
  private var finished: Bool {
    closed || (published == total && tallies.allSatisfy { $0.next >= total })
  }

  private mutating func publishBatch(_ count: UInt64) throws(BenchError) {
    let first = published
    let length = template.count
    let payloadOffset = prefix.count
    let publisher = publisher
    // withUnsafeBytes rethrows untyped errors, so the typed one is carried out by hand.
    let failure = template.withUnsafeBytes { line -> BenchError? in
      do throws(BenchError) {
        try publisher.queue(byteCount: Int(count) * length) { buffer in
          for offset in 0..<Int(count) {
            let destination = buffer + offset * length
            destination.copyMemory(from: line.baseAddress!, byteCount: length)
            Payload.writeDigits(
              first + UInt64(offset), count: Payload.sequenceDigits,
              to: destination + payloadOffset + Payload.sequenceOffset)
          }
        }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    published += count
  }

  private mutating func handle(
    _ connection: PeerConnection, events: Int16, subscriber index: Int?
  ) throws(BenchError) {
    if events & Int16(POLLOUT) != 0 { try connection.flush() }
    guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
    var tally = index.map { tallies[$0] } ?? SequenceTally()
    var refusal: String?
    let open = try connection.read { message in
      switch message {
      case .delivery(let payload):
        guard payload.count > Payload.sequenceOffset + Payload.sequenceDigits,
          let sequence = Payload.readDigits(
            payload.baseAddress! + Payload.sequenceOffset, count: Payload.sequenceDigits)
        else {
          refusal = "a delivery not of the benchmark's shape"
          return
        }
        tally.record(sequence)
      case .refused(let text): refusal = text
      default: break
      }
    }
    if let index {
      tallies[index] = tally
      lastDelivery = MonotonicTime.now()
    }
    // The publisher's answers (acknowledgements, pongs) need no more than reading; a ping
    // was answered by the connection, and that answer is flushed here.
    if connection.hasPendingOutput { try connection.flush() }
    if let refusal, problems.count < 5 { problems.append("refused: \(refusal)") }
    if !open {
      closed = true
      problems.append("the server closed \(index.map { "subscriber \($0)" } ?? "the publisher")")
    }
  }
}
