import IndefiniteObservable
import Testing

/// Whether a source is currently doing something, reported beside its values.
private enum Activity: Equatable {
  case active
  case atRest
}

/// An observer with a second channel next to `next`.
private final class ActivityObserver<T>: Observer {
  typealias Value = T

  init(next: @escaping (T) -> Void, activity: @escaping (Activity) -> Void) {
    self.next = next
    self.activity = activity
  }

  let next: (T) -> Void
  let activity: (Activity) -> Void
}

private final class ActivityObservable<T>: IndefiniteObservable<ActivityObserver<T>> {
  @discardableResult
  func subscribe(
    next: @escaping (T) -> Void,
    activity: @escaping (Activity) -> Void
  ) -> Subscription {
    subscribe(observer: ActivityObserver(next: next, activity: activity))
  }
}

/// Everything an observer received, on either channel, in order.
private enum Event: Equatable {
  case value(Int)
  case activity(Activity)
}

@Suite("Observer channels")
struct ObserverChannelTests {
  @Test("a synchronous source interleaves both channels")
  func synchronousChannels() {
    let observable = ActivityObservable<Int> { observer in
      observer.activity(.active)
      observer.next(1)
      observer.next(2)
      observer.activity(.atRest)
      return noopDisconnect
    }
    var events: [Event] = []

    observable.subscribe(
      next: { events.append(.value($0)) },
      activity: { events.append(.activity($0)) }
    )

    #expect(events == [.activity(.active), .value(1), .value(2), .activity(.atRest)])
  }

  @Test("an asynchronous source uses the second channel on connect and disconnect")
  func asynchronousChannels() {
    let registry = CallbackRegistry<Int>()
    let observable = ActivityObservable<Int> { observer in
      observer.activity(.active)
      let token = registry.register { observer.next($0) }
      return {
        registry.unregister(token)
        observer.activity(.atRest)
      }
    }
    var events: [Event] = []

    let subscription = observable.subscribe(
      next: { events.append(.value($0)) },
      activity: { events.append(.activity($0)) }
    )
    registry.fire(7)
    subscription.unsubscribe()
    registry.fire(8)

    #expect(events == [.activity(.active), .value(7), .activity(.atRest)])
  }
}
