import Glibc

/// One client of the soak, carrying out its ``SoakPlan`` on the load thread: requests on a
/// schedule, every line read and classified, and one of the endings at the end.
///
/// Driven from outside: ``handle(events:now:tally:)`` when poll(2) reports readiness and
/// ``tick(now:tally:)`` on every turn of the loop; ``isDone`` tells when it can be dropped,
/// which closes its socket.
final class SoakClient {
  let plan: SoakPlan
  private(set) var isDone = false

  /// Connects to `address`; with `token`, authenticates first unless the plan says never to.
  init(
    plan: SoakPlan, address: LoopbackAddress, token: String?, now: UInt64,
    tally: inout SoakTally
  ) throws(BenchError) {
    self.plan = plan
    connection = try ClientConnection(to: address, readCapacity: 1024)
    started = now
    nextStepAt = now
    tally.started[plan.role, default: 0] += 1
    if let token, plan.role != .neverAuthenticates {
      send(#"{"op":"auth","token":"\#(token)"}"#, tally: &tally)
    }
    switch plan.role {
    case .compressed:
      send(#"{"op":"compress","algorithm":"deflate"}"#, tally: &tally)
      awaitingCompression = true
    case .slowReader:
      send(#"{"op":"subscribe","stream":"soak.>"}"#, tally: &tally)
    case .neverReader:
      send(#"{"op":"subscribe","stream":"\#(floodTopic)"}"#, tally: &tally)
    case .chatty, .neverAuthenticates:
      break
    }
  }

  /// The poll(2) events to wait for; a never-reader watches only for room and for the close,
  /// and a slow reader does not ask for input while it rests.
  var pollEvents: Int16 {
    let hangUp = Int16(truncatingIfNeeded: 0x2000)  // POLLRDHUP, which Glibc leaves out
    let output = connection.hasPendingOutput ? Int16(POLLOUT) : 0
    if plan.role == .neverReader { return output | hangUp }
    let resting = plan.role == .slowReader && MonotonicTime.now() < restUntil
    return (resting ? 0 : Int16(POLLIN)) | output
  }

  var descriptor: Int32 { connection.descriptor }

  /// Reads, writes or notices the close that poll(2) reported.
  func handle(events: Int16, now: UInt64, tally: inout SoakTally) {
    guard !isDone else { return }
    if plan.role == .neverReader {
      if events & Int16(POLLOUT) != 0 { flush(tally: &tally) }
      if !isDone, events & Int16(truncatingIfNeeded: 0x2000 | Int(POLLHUP | POLLERR)) != 0 {
        tally.slowConsumerCloses += 1
        isDone = true
      }
      return
    }
    if events & Int16(POLLOUT) != 0 { flush(tally: &tally) }
    guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0, !isDone else { return }
    // A slow reader takes 2 KiB every 100 ms, 20 KiB/s; everyone else takes what there is.
    let budget = plan.role == .slowReader ? 2048 : scratch.count
    if plan.role == .slowReader { restUntil = now + 100_000_000 }
    let count = scratch.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, budget) }
    if count > 0 {
      take(scratch[..<count], tally: &tally)
    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
      serverClosed(tally: &tally)
    }
  }

  /// Sends the steps that are due, and ends the client when its plan or its time is up.
  func tick(now: UInt64, tally: inout SoakTally) {
    guard !isDone else { return }
    let age = now &- started
    switch plan.role {
    case .neverAuthenticates:
      // The auth timeout (5 s by default) plus room for a busy machine.
      if age > Self.authTimeoutAllowance {
        tally.authTimeoutMissed += 1
        end(.reset, tally: &tally)
      }
      return
    case .neverReader:
      if age > 20_000_000_000 {
        tally.neverReadersOutlived += 1
        end(.reset, tally: &tally)
      } else if !connection.hasPendingOutput, floodBytes < 16 << 20 {
        floodBytes += Self.floodValue.count
        send(
          #"{"op":"publish","stream":"\#(floodTopic)","value":"\#(Self.floodValue)"}"#,
          tally: &tally)
      }
      return
    case .slowReader:
      if age > plan.lifetime || finishing { end(plan.ending, tally: &tally) }
      return
    case .chatty, .compressed:
      break
    }
    if let drainingUntil {
      if now > drainingUntil {
        tally.unexpectedClose("the server did not close a half-closed connection within 3 s")
        isDone = true
      }
      return
    }
    guard !awaitingCompression else { return }
    while now >= nextStepAt, stepIndex < plan.steps.count, !finishing {
      send(plan.steps[stepIndex].request(holding: &subscriptions), tally: &tally)
      stepIndex += 1
      nextStepAt = now + plan.pace
    }
    if stepIndex == plan.steps.count || finishing { end(plan.ending, tally: &tally) }
  }

  /// Skips the rest of the plan: the phase is over and the client should leave as planned.
  func finish() { finishing = true }

  /// Ends the client at once with RST, for one still busy when the phase's grace ran out.
  func force(tally: inout SoakTally) {
    guard !isDone else { return }
    tally.forced += 1
    end(.reset, tally: &tally)
  }

  // MARK: Private

  private static let authTimeoutAllowance: UInt64 = 9_000_000_000
  private static let floodValue = String(repeating: "f", count: 32_768)

  private let connection: ClientConnection
  private let started: UInt64
  private var nextStepAt: UInt64
  private var stepIndex = 0
  private var finishing = false
  private var awaitingCompression = false
  private let input = SoakInput()
  private var drainingUntil: UInt64?
  private var subscriptions: [String] = []
  private var requests = 0
  private var replies = 0
  private var floodBytes = 0
  private var restUntil: UInt64 = 0
  private var scratch = [UInt8](repeating: 0, count: 16_384)
  private var floodTopic: String { "flood.c\(descriptor)" }

  private func send(_ line: String, tally: inout SoakTally) {
    requests += 1
    tally.requests += 1
    if let codec = input.codec {
      guard let bytes = codec.compress(Array((line + "\n").utf8)) else {
        tally.error("zlib could not compress a request")
        return end(.reset, tally: &tally)
      }
      connection.queue(bytes)
    } else {
      connection.queueLine(line)
    }
    flush(tally: &tally)
  }

  private func flush(tally: inout SoakTally) {
    do {
      try connection.flush()
    } catch {
      serverClosed(tally: &tally)
    }
  }

  /// Bytes read, split into lines and counted.
  private func take(_ bytes: ArraySlice<UInt8>, tally: inout SoakTally) {
    do {
      try input.take(bytes) { classify($0, tally: &tally) }
      if input.codec != nil { awaitingCompression = false }
    } catch {
      tally.error(error.description)
      end(.reset, tally: &tally)
    }
  }

  /// Counts one line; returns whether it is the reply that turns compression on.
  private func classify(_ line: ArraySlice<UInt8>, tally: inout SoakTally) -> Bool {
    if line.starts(with: LineShape.okTrue) {
      replies += 1
      tally.replies += 1
      return awaitingCompression && line.starts(with: Self.compressReply)
    }
    if line.starts(with: LineShape.okFalse) {
      replies += 1
      tally.replies += 1
      // Clients that misbehave on purpose may be told so before they are closed.
      if plan.role == .chatty || plan.role == .compressed {
        tally.error(String(decoding: line.prefix(300), as: UTF8.self))
      }
    } else if line.starts(with: Self.delivery) {
      tally.deliveries += 1
    }
    return false
  }

  private static let compressReply = Array(#"{"ok":true,"op":"compress""#.utf8)
  private static let delivery = Array(#"{"stream":"#.utf8)

  /// The server closed the connection (EOF, or an error on read or write).
  private func serverClosed(tally: inout SoakTally) {
    guard !isDone else { return }
    isDone = true
    switch plan.role {
    case .neverAuthenticates:
      tally.authTimeoutCloses += 1
    case .slowReader, .neverReader:
      tally.slowConsumerCloses += 1
    case .chatty, .compressed:
      if drainingUntil != nil {
        tally.endings[.halfClose, default: 0] += 1
        tally.unanswered += max(0, requests - replies)
      } else {
        tally.unexpectedClose("the server closed a \(plan.role.rawValue) client")
      }
    }
  }

  private func end(_ ending: SoakPlan.Ending, tally: inout SoakTally) {
    switch ending {
    case .halfClose:
      guard drainingUntil == nil else { return }
      if connection.hasPendingOutput { return }  // a later turn flushes it, then ends
      shutdown(descriptor, Int32(SHUT_WR))
      drainingUntil = MonotonicTime.now() + 3_000_000_000
      // A reader or a never-reader leaves at its half-close; only requesters wait for replies.
      if plan.role != .chatty, plan.role != .compressed {
        tally.endings[.halfClose, default: 0] += 1
        isDone = true
      }
    case .reset:
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      tally.endings[.reset, default: 0] += 1
      isDone = true
    case .abandon:
      tally.endings[.abandon, default: 0] += 1
      isDone = true
    }
  }
}
