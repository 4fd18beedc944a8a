import Dispatch
import Locking
import Logging
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// Code that belongs to one event loop checks, in debug builds, that it runs there; and
/// `submitAndWait` called on its own loop runs its body at once instead of waiting for ever.
@Suite("Loop affinity", .timeLimit(.minutes(1)))
struct LoopAffinityTests {
  static let ringAvailable = (try? SendRing(entries: 8, counters: ServerCounters())) != nil

  @Test func submitAndWaitOnItsOwnLoopRunsTheBodyAtOnce() throws {
    let ran = Locked<[String]>([])
    let finished = try runOnItsOwnLoop { loop in
      // Queued and waited for, this would wait for the very thread that is waiting.
      try? loop.submitAndWait { ran.withLock { $0.append("body") } }
      ran.withLock { $0.append("returned") }
    }
    guard finished else { return }
    #expect(ran.withLock { $0 } == ["body", "returned"])
  }

  @Test func submitAndWaitOnItsOwnLoopPassesTheBodysErrorOn() throws {
    let caught = Locked<SystemError?>(nil)
    let finished = try runOnItsOwnLoop { loop in
      do throws(SystemError) {
        try loop.submitAndWait { () throws(SystemError) in
          throw SystemError(call: "test", code: 42)
        }
      } catch {
        caught.withLock { $0 = error }
      }
    }
    guard finished else { return }
    #expect(caught.withLock { $0?.code } == 42)
  }

  /// Runs `body` on a new loop as one of the loop's own tasks and expects it to return within
  /// 5 s; then stops and joins the loop. Returns whether `body` returned.
  private func runOnItsOwnLoop(_ body: @escaping @Sendable (EventLoop) -> Void) throws -> Bool {
    let loop = try EventLoop(name: "affinity", logger: Logger(label: "test"))
    try loop.start()
    let returned = DispatchSemaphore(value: 0)
    loop.execute {
      body(loop)
      returned.signal()
    }
    let finished = returned.wait(timeout: .now() + 5) == .success
    #expect(finished, "submitAndWait did not return")
    // A loop stuck in the wait can neither stop nor be joined: the test ends without it.
    guard finished else { return false }
    loop.stop()
    loop.join()
    return true
  }

  @Test func loopOnlyCallsOnTheLoopPassTheCheck() throws {
    let loop = try EventLoop(name: "affinity", logger: Logger(label: "test"))
    try loop.start()
    defer {
      loop.stop()
      loop.join()
    }
    let fired = Locked(false)
    try loop.submitAndWait {
      loop.assertInLoop()
      let timer = loop.schedule(in: .seconds(60)) { fired.withLock { $0 = true } }
      loop.cancel(timer)
    }
    #expect(!loop.inLoop)
    #expect(!fired.withLock { $0 })
  }

  #if DEBUG
    @Test func aLoopOnlyCallFromAnotherThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let loop = try EventLoop(name: "elsewhere", logger: Logger(label: "test"))
        // The test's thread is not the loop's: scheduling a timer here is a race in release.
        _ = loop.schedule(in: .seconds(1)) {}
      }
    }

    @Test(.enabled(if: ringAvailable))
    func aSendRingUsedOffItsLoopStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let ring = try SendRing(entries: 8, counters: ServerCounters())
        let loop = try EventLoop(name: "elsewhere", logger: Logger(label: "test"), sendRing: ring)
        ring.submitQueued()
        _ = loop
      }
    }
  #endif
}
