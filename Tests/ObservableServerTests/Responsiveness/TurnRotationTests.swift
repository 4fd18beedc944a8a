import CLinux
import Glibc
import Locking
import Logging
import ObservablePOSIX
import TestSupport
import Testing

@testable import ObservableServer

/// A loop whose turns run out of time before every ready descriptor is handled still handles
/// each of them within a few turns, whichever place epoll reports it in, and a descriptor
/// whose handling is light goes first.
@Suite("Turns rotate over ready descriptors", .serialized, .timeLimit(.minutes(1)))
struct TurnRotationTests {
  /// Twelve descriptors that stay ready and each take 8 ms, so that about three fit in a turn
  /// and epoll reports them in the same order every turn. Handling first those the turn before
  /// postponed, as the loop did, let the first six take turns, and the last six never ran.
  @Test func descriptorsThatFillEveryTurnTakeTurns() throws {
    let handlings = HandlingLog()
    let loop = try EventLoop(name: "turns", logger: Logger(label: "test"))
    try loop.start()
    let busy = try (0..<12).map { try ReadyPipe(number: $0, taking: .milliseconds(8), handlings) }
    defer { stop(loop, deregistering: busy) }
    try loop.submitAndWait { () throws(SystemError) in
      for pipe in busy { try loop.register(pipe.readEnd, events: EPOLLIN.rawValue, handler: pipe) }
    }

    // Four rounds' worth of handlings: each descriptor had its turn, twice at least.
    #expect(eventually(timeout: .seconds(20)) { handlings.count >= 48 })
    let counts = busy.map { pipe in handlings.entries.count { $0 == pipe.number } }
    #expect(counts.allSatisfy { $0 >= 2 }, "handlings per descriptor: \(counts)")
  }

  /// A descriptor that becomes ready while twelve heavy ones fill every turn is handled first
  /// in the next turn, not after a round of all twelve: a client that only pings is answered
  /// while publishers flood the loop.
  @Test func aLightDescriptorGoesBeforeTheHeavyOnes() throws {
    let handlings = HandlingLog()
    let loop = try EventLoop(name: "turns", logger: Logger(label: "test"))
    try loop.start()
    let busy = try (0..<12).map { try ReadyPipe(number: $0, taking: .milliseconds(8), handlings) }
    let light = try ReadyPipe(number: 100, taking: .zero, handlings)
    defer { stop(loop, deregistering: busy + [light]) }
    try loop.submitAndWait { () throws(SystemError) in
      for pipe in busy { try loop.register(pipe.readEnd, events: EPOLLIN.rawValue, handler: pipe) }
    }
    #expect(eventually(timeout: .seconds(20)) { handlings.count >= 24 })
    let registered = Locked(0)
    try loop.submitAndWait { () throws(SystemError) in
      try loop.register(light.readEnd, events: EPOLLIN.rawValue, handler: light)
      registered.withLock { $0 = handlings.count }
    }

    #expect(eventually(timeout: .seconds(10)) { handlings.entries.contains(light.number) })
    let entries = handlings.entries
    let before = entries.firstIndex(of: light.number).map { $0 - registered.withLock { $0 } }
    // The turn it became ready in had already run; the next runs it first.
    #expect(before == 0, "heavy handlings between its registration and its own: \(before ?? -1)")
  }

  private func stop(_ loop: EventLoop, deregistering pipes: [ReadyPipe]) {
    try? loop.submitAndWait {
      for pipe in pipes { loop.deregister(pipe.readEnd) }
    }
    loop.stop()
    loop.join()
  }
}

/// The order in which descriptors were handled, by number.
private final class HandlingLog: Sendable {
  func append(_ number: Int) { log.withLock { $0.append(number) } }
  var entries: [Int] { log.withLock { $0 } }
  var count: Int { log.withLock { $0.count } }
  private let log = Locked<[Int]>([])
}

/// A pipe with a byte in it that is never read, so level-triggered epoll reports it in every
/// turn; its handler takes `cost` each time it is called and logs the call.
private final class ReadyPipe: ReadinessHandler, Sendable {
  init(number: Int, taking cost: Duration, _ handlings: HandlingLog) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw SystemError(call: "pipe", code: errno)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
    self.number = number
    self.cost = cost
    self.handlings = handlings
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  let number: Int
  let readEnd: Int32

  func descriptorReady(_ events: UInt32) {
    handlings.append(number)
    let (seconds, attoseconds) = cost.components
    usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }

  private let writeEnd: Int32
  private let cost: Duration
  private let handlings: HandlingLog
}
