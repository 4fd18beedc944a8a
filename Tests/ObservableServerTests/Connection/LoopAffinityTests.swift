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
    let loop = try EventLoop(name: "affinity", logger: Logger(label: "test"))
    try loop.start()
    let ran = Locked<[String]>([])
    let returned = DispatchSemaphore(value: 0)
    loop.execute {
      // Queued and waited for, this would wait for the very thread that is waiting.
      try? loop.submitAndWait { ran.withLock { $0.append("body") } }
      ran.withLock { $0.append("returned") }
      returned.signal()
    }
    let finished = returned.wait(timeout: .now() + 5) == .success
    #expect(finished, "submitAndWait did not return")
    // A loop stuck in the wait can neither stop nor be joined: the test ends without it.
    guard finished else { return }
    loop.stop()
    loop.join()
    #expect(ran.withLock { $0 } == ["body", "returned"])
  }

  @Test func submitAndWaitOnItsOwnLoopPassesTheBodysErrorOn() throws {
    let loop = try EventLoop(name: "affinity", logger: Logger(label: "test"))
    try loop.start()
    let caught = Locked<SystemError?>(nil)
    let returned = DispatchSemaphore(value: 0)
    loop.execute {
      do throws(SystemError) {
        try loop.submitAndWait { () throws(SystemError) in
          throw SystemError(call: "test", code: 42)
        }
      } catch {
        caught.withLock { $0 = error }
      }
      returned.signal()
    }
    let finished = returned.wait(timeout: .now() + 5) == .success
    #expect(finished, "submitAndWait did not return")
    guard finished else { return }
    loop.stop()
    loop.join()
    #expect(caught.withLock { $0?.code } == 42)
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
