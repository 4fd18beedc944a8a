import IndefiniteObservable
import Locking
import Testing

/// A source whose values a test pushes from any thread, counting connects and disconnects.
private final class PushSource: Sendable {
  private let observers = Locked<[Int: ValueObserver<Int>]>([:])
  private let counts = Locked((connects: 0, disconnects: 0))

  var observable: ValueObservable<Int> {
    ValueObservable<Int> { [self] observer in
      let id = counts.withLock { counts in
        counts.connects += 1
        return counts.connects
      }
      observers.withLock { $0[id] = observer }
      return { [self] in
        observers.withLock { _ = $0.removeValue(forKey: id) }
        counts.withLock { $0.disconnects += 1 }
      }
    }
  }

  func push(_ value: Int) {
    for observer in observers.withLock({ Array($0.values) }) { observer.next(value) }
  }

  var connects: Int { counts.withLock { $0.connects } }
  var disconnects: Int { counts.withLock { $0.disconnects } }
}

@Suite("AsyncSequence view", .timeLimit(.minutes(1)))
struct AsyncValuesTests {
  @Test("for await receives values in order; leaving the loop unsubscribes once")
  func loopUnsubscribesOnExit() async {
    let source = PushSource()
    let observable = source.observable
    let values = observable.values
    #expect(source.connects == 0)
    let pusher = Task.detached {
      var next = 0
      while !Task.isCancelled && source.disconnects == 0 {
        if source.connects == 1 {
          next += 1
          source.push(next)
        }
        await Task.yield()
      }
    }
    var seen: [Int] = []
    for await value in values {
      seen.append(value)
      if seen.count == 5 { break }
    }
    await pusher.value
    #expect(seen == Array(seen.first!..<(seen.first! + 5)))
    #expect(source.connects == 1)
    #expect(source.disconnects == 1)
  }

  @Test("cancelling the looping task unsubscribes")
  func cancellationUnsubscribes() async {
    let source = PushSource()
    let observable = source.observable
    let loop = Task {
      var count = 0
      for await _ in observable.values { count += 1 }
      return count
    }
    while source.connects == 0 { await Task.yield() }
    source.push(1)
    loop.cancel()
    _ = await loop.value
    #expect(source.disconnects == 1)
  }

  @Test("a ValueObservable can be handed to a Task (it is Sendable)")
  func sendableAcrossTasks() async {
    let observable = ValueObservable<Int> { observer in
      observer.next(7)
      return noopDisconnect
    }
    let first = await Task.detached { () -> Int? in
      for await value in observable.values { return value }
      return nil
    }.value
    #expect(first == 7)
  }

  @Test("the buffer keeps only the newest values when the loop is slow")
  func boundedBuffer() async {
    let source = PushSource()
    var iterator = ObservableValues(source.observable, limit: 3).makeAsyncIterator()
    for value in 1...10 { source.push(value) }
    var seen: [Int] = []
    for _ in 0..<3 { if let value = await iterator.next() { seen.append(value) } }
    #expect(seen == [8, 9, 10])
  }
}
