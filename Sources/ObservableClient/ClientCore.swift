import Glibc
import IndefiniteObservable
import Locking
import Logging
import ObservablePOSIX

/// The state one ``ObservableClient`` shares between its callers and its connection thread.
///
/// Two locks, always taken in this order: `writer` orders everything that goes on the wire (so
/// the queue of pending replies matches the order of requests, and subscribe/unsubscribe
/// transitions reach the server in the order they happened), and `state` guards the books.
/// The connection thread reads without the `writer` lock, so a slow write never stops
/// deliveries. Observers are called on the connection thread, outside both locks.
final class ClientCore: Sendable {
  /// Everything behind the `state` lock.
  struct State {
    var book = SubscriptionBook()
    var pending: [PendingReply] = []
    var connection = ConnectionState.idle
    var stateObservers: [Int: ValueObserver<ConnectionState>] = [:]
    var nextStateObserver = 0
    var serverSendsSub = false
    /// Whether the current connection's greeting lists `history`: subscriptions then ask for
    /// positions and resume with `since`.
    var serverKeepsHistory = false
    /// The observers of ``ObservableClient/gaps``.
    var gapObservers: [Int: ValueObserver<ResumeGap>] = [:]
    /// The delivery lines of the `history` read at the head of `pending`, so far.
    var historyLines: [Delivery] = []
    var closed = false
    var thread: LoopThread?
    var firstConnect: CheckedContinuation<Result<Void, ClientError>, Never>?
    var decodingFailures = 0
    /// The last will every connection registers, if the client has one.
    var will: Will?
    /// Requests written, by op, for tests and diagnostics.
    var sent: [String: Int] = [:]
  }

  let address: ServerAddress
  let configuration: ClientConfiguration
  let wake: WakePipe?
  let writer = Locked<SocketWriter?>(nil)
  let state = Locked(State())

  /// Creates the shared state; no thread runs until ``start(_:)``.
  init(address: ServerAddress, configuration: ClientConfiguration) {
    self.address = address
    self.configuration = configuration
    wake = WakePipe()
  }

  var logger: Logger { configuration.logger }

  // MARK: Local observers

  /// Adds a local observer of `name`; the first one sends `subscribe` if connected (otherwise
  /// the next connection does), resuming after `since` when given. Returns the id that
  /// ``removeObserver(_:id:)`` takes.
  func addObserver(_ name: String, since: String?, _ observer: ValueObserver<Delivery>) -> Int {
    writer.withLock { writer in
      let (id, line) = state.withLock { state -> (Int, [UInt8]?) in
        let (id, isFirst) = state.book.add(name, observer: observer, since: since)
        guard isFirst, writer != nil else { return (id, nil) }
        return (id, state.subscribeRequest(name))
      }
      if let line { writer?.send(line) }
      return id
    }
  }

  /// Removes a local observer; the last one of `name` sends `unsubscribe`, exactly once.
  func removeObserver(_ name: String, id: Int) {
    writer.withLock { writer in
      let send = state.withLock { state -> Bool in
        let (wasLast, wasOnWire) = state.book.remove(name, id: id)
        guard wasLast, wasOnWire, writer != nil else { return false }
        state.pending.append(.unsubscribe(name))
        state.sent["unsubscribe", default: 0] += 1
        return true
      }
      if send { writer?.send(RequestLine.stream("unsubscribe", name)) }
    }
  }

  /// Adds an observer of the connection state and gives it the current state at once.
  func addStateObserver(_ observer: ValueObserver<ConnectionState>) -> Int {
    let (id, current) = state.withLock { state in
      state.nextStateObserver += 1
      state.stateObservers[state.nextStateObserver] = observer
      return (state.nextStateObserver, state.connection)
    }
    observer.next(current)
    return id
  }

  /// Removes an observer of the connection state.
  func removeStateObserver(_ id: Int) {
    state.withLock { _ = $0.stateObservers.removeValue(forKey: id) }
  }

  /// Records a new connection state and tells its observers.
  func setConnectionState(_ new: ConnectionState) {
    let observers = state.withLock { state in
      state.connection = new
      return Array(state.stateObservers.values)
    }
    for observer in observers { observer.next(new) }
  }

  // MARK: Requests

  /// Sends `line` and waits for its reply; fails at once when not connected.
  func request(_ line: [UInt8], op: String) async -> Result<ServerLine, ClientError> {
    await withCheckedContinuation { continuation in
      let queued = writer.withLock { writer -> Bool in
        guard let writer else { return false }
        state.withLock {
          $0.pending.append(.caller(continuation))
          $0.sent[op, default: 0] += 1
        }
        // A failed write shuts the socket down; the connection thread then fails every
        // pending reply, this one included.
        writer.send(line)
        return true
      }
      if !queued {
        let closed = state.withLock { $0.closed }
        continuation.resume(returning: .failure(closed ? .closed : .notConnected))
      }
    }
  }

  // MARK: Life cycle

  /// Starts the connection thread; `firstConnect` hears whether the first attempt succeeded.
  func start(_ firstConnect: CheckedContinuation<Result<Void, ClientError>, Never>) {
    let refusal = state.withLock { state -> ClientError? in
      if state.closed { return .closed }
      guard state.thread == nil, wake != nil else {
        return wake == nil
          ? .connectionFailed(address: address.description, reason: "no pipe")
          : .protocolViolation("connect() was already called")
      }
      state.firstConnect = firstConnect
      // A thread of its own rather than a task: the connection blocks in `poll` and `read`,
      // which would hold one of the cooperative pool's few threads for the client's whole
      // life. The system's default stack, because observers run on it.
      state.thread = try? LoopThread.start(name: "observable-conn", stackBytes: nil) {
        [self] in run()
      }
      return state.thread == nil
        ? .connectionFailed(address: address.description, reason: "no thread") : nil
    }
    if let refusal { firstConnect.resume(returning: .failure(refusal)) }
  }

  /// Stops the connection for good and waits for its thread, unless called from it.
  func close() {
    let (wasOpen, thread) = state.withLock { state -> (Bool, LoopThread?) in
      guard !state.closed else { return (false, nil) }
      state.closed = true
      return (true, state.thread)
    }
    guard wasOpen else { return }
    wake?.signal()
    // Closed from one of its own observers, the thread is left to end by itself.
    if let thread, thread.isCurrent {
      thread.detach()
    } else if let thread {
      thread.join()
    } else {
      setConnectionState(.closed)
    }
  }

  /// Whether ``close()`` was called.
  var isClosed: Bool { state.withLock { $0.closed } }
}
