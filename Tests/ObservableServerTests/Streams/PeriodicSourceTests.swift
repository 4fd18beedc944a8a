import Testing

@testable import ObservableStreams

/// A periodic source on a scheduler that is not an event loop: the streams layer needs only
/// ``StreamScheduler``, so its timers can be driven by hand.
@Suite(.timeLimit(.minutes(1)))
struct PeriodicSourceTests {
  @Test("a periodic source ticks on the scheduler it is given, and only while observed")
  func ticksOnlyWhileObserved() {
    let scheduler = ManualScheduler()
    let source = PeriodicSource(name: "tick", interval: .seconds(1)) { Array("7".utf8) }
    source.start(on: scheduler)
    scheduler.runTasks()
    #expect(scheduler.pendingTimers == 0)

    let collector = LineCollector()
    source.attach(collector.observer, key: 1)
    #expect(collector.texts == [LineCollector.delivery("tick", "7")])
    scheduler.runTasks()
    #expect(scheduler.pendingTimers == 1)
    #expect(scheduler.delays == [.seconds(1)])

    scheduler.fireTimers()
    scheduler.fireTimers()
    #expect(collector.texts.count == 3)
    #expect(scheduler.pendingTimers == 1)

    source.detach(key: 1)
    scheduler.runTasks()
    #expect(scheduler.pendingTimers == 0)
    scheduler.fireTimers()
    #expect(collector.texts.count == 3)
  }

  @Test("shutdown cancels the pending tick")
  func shutdownCancels() {
    let scheduler = ManualScheduler()
    let source = PeriodicSource(name: "tick", interval: .seconds(1)) { Array("1".utf8) }
    let collector = LineCollector()
    source.attach(collector.observer, key: 1)
    source.start(on: scheduler)
    scheduler.runTasks()
    #expect(scheduler.pendingTimers == 1)
    source.shutdown()
    scheduler.runTasks()
    #expect(scheduler.pendingTimers == 0)
  }
}

/// A scheduler whose tasks and timers run only when the test says so, on the test's thread.
private final class ManualScheduler: StreamScheduler, @unchecked Sendable {
  // Unchecked: touched only by the one test thread that owns it.
  private var tasks: [@Sendable () -> Void] = []
  private var timers: [Int: () -> Void] = [:]
  private var nextTimer = 0
  /// The delay of every timer scheduled so far.
  private(set) var delays: [Duration] = []

  var pendingTimers: Int { timers.count }

  func execute(_ task: @escaping @Sendable () -> Void) { tasks.append(task) }

  func scheduleTimer(in delay: Duration, _ task: @escaping () -> Void) -> any StreamTimer {
    nextTimer += 1
    timers[nextTimer] = task
    delays.append(delay)
    return ManualTimer(id: nextTimer, scheduler: self)
  }

  /// Runs the tasks queued so far.
  func runTasks() {
    let queued = tasks
    tasks = []
    for task in queued { task() }
  }

  /// Runs the timers due so far, as if their delay had passed.
  func fireTimers() {
    let due = timers
    timers = [:]
    for id in due.keys.sorted() { due[id]?() }
  }

  fileprivate func cancel(_ id: Int) { timers[id] = nil }
}

private struct ManualTimer: StreamTimer {
  let id: Int
  let scheduler: ManualScheduler

  func cancel() { scheduler.cancel(id) }
}
