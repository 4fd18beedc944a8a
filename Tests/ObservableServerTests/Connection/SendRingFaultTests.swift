import Glibc
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// The ring's error paths over real sockets: each completion goes to the writer and bytes it
/// belongs to, a failed send fails once and leaves the others alone, a full socket's rest goes
/// out later, and nothing is sent twice.
@Suite("Send ring faults", .timeLimit(.minutes(1)))
struct SendRingFaultTests {
  static let ringAvailable = (try? SendRing(entries: 8, counters: ServerCounters())) != nil

  /// Bytes that differ per writer and per position, so a misplaced or repeated byte shows.
  private static func payload(_ writer: Int, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ writer &* 7 &+ $0 / 251) }
  }

  /// A writer on a loopback TCP connection whose peer has reset it (SO_LINGER 0, then close).
  private static func resetWriter(bytes: [UInt8]) throws -> SocketPairWriter {
    let listener = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 1)
    defer { close(listener) }
    let client = try LineClient(port: SocketCalls.boundPort(listener) ?? 0, readGreeting: false)
    let accepted = accept(listener, nil, nil)
    guard accepted >= 0 else { throw SystemError(call: "accept", code: errno) }
    var abort = linger(l_onoff: 1, l_linger: 0)
    setsockopt(accepted, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
    close(accepted)
    // The reset has arrived once the socket reports a hang-up (asked for no event, poll
    // reports only hang-ups and errors).
    var watched = pollfd(fd: client.fd, events: 0, revents: 0)
    #expect(poll(&watched, 1, 2000) == 1, "no reset within 2 s")
    return SocketPairWriter(descriptor: dup(client.fd), peer: -1, bytes: bytes)
  }

  @Test(.enabled(if: ringAvailable))
  func aResetMidBatchFailsThatSendOnceAndTheOthersGoOutWhole() throws {
    let ring = try SendRing(entries: 16, counters: ServerCounters())
    let payloads = (0..<5).map { Self.payload($0, count: 100 + $0) }
    let writers = try payloads.indices.map { index in
      index == 3
        ? try Self.resetWriter(bytes: payloads[index])
        : try SocketPairWriter(bytes: payloads[index])
    }
    writers[1].closePeer()
    for writer in writers { ring.enqueue(writer) }
    ring.submitQueued()
    #expect(writers[1].outcomes == ["error \(EPIPE)"])
    #expect(
      writers[3].outcomes == ["error \(ECONNRESET)"] || writers[3].outcomes == ["error \(EPIPE)"],
      "\(writers[3].outcomes)")
    for index in [0, 2, 4] {
      #expect(writers[index].outcomes == ["sent \(payloads[index].count)"])
      #expect(writers[index].received() == payloads[index])
    }
    // Another turn sends nothing again, to anyone.
    for writer in writers { ring.enqueue(writer) }
    ring.submitQueued()
    for index in [0, 2, 4] { #expect(writers[index].received().isEmpty) }
    #expect(writers.allSatisfy { $0.directWrites == 0 && $0.outcomes.count == 1 })
    #expect(ring.inFlight == 0)
    #expect(writers.allSatisfy { $0.sendsInFlight == 0 }, "each send settled once")
  }

  @Test(.enabled(if: ringAvailable))
  func fullSocketsTakeTheRestLaterOnceAndInOrder() throws {
    let ring = try SendRing(entries: 16, counters: ServerCounters())
    // Each payload is far more than a 4 KiB send buffer holds: sends come back short, then
    // EAGAIN, and the rest goes out turn by turn as the peers read.
    let payloads = (0..<4).map { Self.payload($0, count: 48 * 1024 + $0) }
    let writers = try payloads.map { try SocketPairWriter(bytes: $0) }
    var received = [[UInt8]](repeating: [], count: writers.count)
    var turns = 0
    while writers.contains(where: { $0.offset < $0.bytes.count }), turns < 10_000 {
      turns += 1
      for writer in writers where writer.offset < writer.bytes.count { ring.enqueue(writer) }
      ring.submitQueued()
      for (index, writer) in writers.enumerated() { received[index] += writer.received() }
    }
    for (index, writer) in writers.enumerated() {
      #expect(writer.offset == payloads[index].count)
      #expect(received[index] == payloads[index], "writer \(index)")
      #expect(writer.outcomes.contains("full"), "writer \(index): \(writer.outcomes.prefix(8))")
      #expect(writer.outcomes.contains { $0.hasPrefix("sent ") && $0 != "sent 16384" })
      #expect(writer.sendsInFlight == 0, "writer \(index)")
    }
    #expect(ring.inFlight == 0)
  }

  @Test(.enabled(if: ringAvailable))
  func sendsTheKernelDidNotTakeGoOutDirectlyOnceAndTheTakenOnesAreNotRepeated() throws {
    let counters = ServerCounters()
    let ring = try SendRing(entries: 16, counters: counters)
    ring.submissionLimit = 2
    let payloads = (0..<5).map { Self.payload($0, count: 200 + $0) }
    let writers = try payloads.map { try SocketPairWriter(bytes: $0) }
    for writer in writers { ring.enqueue(writer) }
    ring.submitQueued()
    // The first two went through the ring; the kernel "refused" the other three.
    #expect(writers[..<2].allSatisfy { $0.outcomes.count == 1 && $0.directWrites == 0 })
    #expect(writers[2...].allSatisfy { $0.outcomes.isEmpty && $0.directWrites == 1 })
    for (index, writer) in writers.enumerated() {
      #expect(writer.received() == payloads[index], "writer \(index)")
    }
    #expect(counters.snapshot.batchedSendsTotal == 2)
    #expect(ring.inFlight == 0)
    // The three withdrawn sends let their bytes go too, before writing them directly.
    #expect(writers.map(\.sendsInFlight) == [0, 0, 0, 0, 0])
  }

  @Test(.enabled(if: ringAvailable))
  func completionsTakenInALaterTurnGoToTheirOwnWritersAndNothingIsSentTwice() throws {
    let ring = try SendRing(entries: 16, counters: ServerCounters())
    let payloads = (0..<4).map { Self.payload($0, count: 300 + $0) }
    let writers = try payloads.map { try SocketPairWriter(bytes: $0) }
    // The first turn's completions are not taken in its turn, as after a failed wait.
    ring.takesCompletionsAtOnce = false
    ring.enqueue(writers[0])
    ring.enqueue(writers[1])
    ring.submitQueued()
    #expect(ring.inFlight == 2)
    #expect(writers[0].outcomes.isEmpty && writers[1].outcomes.isEmpty)
    // Until their completions are taken, the two writers keep their bytes where they are.
    #expect(writers[0].sendsInFlight == 1 && writers[1].sendsInFlight == 1)
    // The next turn has other writers in front: the late completions still go to the first
    // two, by their tokens, and the first writer, queued again, sends nothing twice.
    ring.takesCompletionsAtOnce = true
    ring.enqueue(writers[2])
    ring.enqueue(writers[3])
    ring.enqueue(writers[0])
    ring.submitQueued()
    #expect(ring.inFlight == 0)
    for (index, writer) in writers.enumerated() {
      #expect(writer.outcomes == ["sent \(payloads[index].count)"], "writer \(index)")
      #expect(writer.received() == payloads[index], "writer \(index)")
      #expect(writer.directWrites == 0, "writer \(index)")
      #expect(writer.sendsInFlight == 0, "writer \(index)")
    }
  }
}
