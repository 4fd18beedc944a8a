import IndefiniteObservable

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A connection to an `observable-server` whose streams are `IndefiniteObservable`s.
///
/// ```swift
/// let client = try ObservableClient("127.0.0.1:7070")
/// try await client.connect()
/// let subscription = client.stream("room.*", as: Double.self).subscribe { print($0) }
/// let receivers = try await client.publish("room.1", 21.5)
/// subscription.unsubscribe()
/// ```
///
/// Subscribing sends nothing until the first local observer of a name subscribes; the local
/// observers of one name share one network subscription, and the last one's `unsubscribe()`
/// sends `unsubscribe` once. Dropping a `Subscription` does not unsubscribe. Observers are called
/// on the client's connection thread, one value at a time, in the order the server sent them.
///
/// When the connection drops the client reconnects with back-off (``ReconnectPolicy``) and
/// subscribes again every name that has local observers, so observers go on receiving values
/// without doing anything. When the server keeps history (`--history N`; its greeting lists
/// `history`), each subscription resumes after the last value it delivered: observers see
/// every value once, in order, with none repeated across the reconnect, and when the history
/// no longer reaches back that far, ``gaps`` says so (and the client logs a warning). Without
/// history, values published while it was away are not replayed, and a retained value is sent
/// again by the server on the new subscription, so it arrives a second time.
/// A last will (``setWill(_:_:retain:)``) is registered again on each new connection.
public final class ObservableClient: Sendable {
  /// The server this client connects to.
  public var address: ServerAddress { core.address }

  let core: ClientCore

  /// Creates a client for `address`; nothing is connected until ``connect()``.
  public init(address: ServerAddress, configuration: ClientConfiguration = .init()) {
    core = ClientCore(address: address, configuration: configuration)
  }

  /// Creates a client for an address written as `host:port`, `[v6addr]:port` or `unix:/path`,
  /// or `tls://` and one of these for TLS (with `configuration.tls`, or the default checks
  /// when it is `nil`).
  public convenience init(
    _ address: String, configuration: ClientConfiguration = .init()
  ) throws(ClientError) {
    let (parsed, usesTLS) = try ServerAddress.parsing(url: address)
    var configuration = configuration
    if usesTLS, configuration.tls == nil { configuration.tls = ClientTLSConfiguration() }
    self.init(address: parsed, configuration: configuration)
  }

  deinit { core.close() }

  /// Connects for the first time; after that the client reconnects by itself until ``close()``.
  ///
  /// - Throws: ``ClientError/connectionFailed(address:reason:)`` naming the address, or
  ///   ``ClientError/server(code:message:)`` when the server refused the token. The client is
  ///   then closed.
  public func connect() async throws(ClientError) {
    let result = await withCheckedContinuation { core.start($0) }
    try result.get()
  }

  /// Closes the connection for good: pending requests fail with ``ClientError/closed`` and
  /// observers receive nothing more. Waits for the connection thread to end.
  public func close() { core.close() }

  /// A remote stream, or every stream a pattern matches, as an observable of deliveries.
  ///
  /// A name the server refuses (such as `bad_name`) is logged as an error through swift-log and
  /// its observers receive nothing: the protocol has no error channel for an observer.
  ///
  /// - Parameters:
  ///   - nameOrPattern: A stream name (`clock`, `room.1`) or a pattern (`room.*`, `room.>`).
  ///   - since: A position the server gave (``Delivery/position``): the subscription starts
  ///     with the values after it that the server's history still holds, then goes on live;
  ///     ``gaps`` reports it when the history no longer reaches back that far or the server
  ///     keeps none. It counts for the first observer of a name, which starts the network
  ///     subscription; later observers of the same name join it as it is.
  public func stream(_ nameOrPattern: String, since: String? = nil) -> ValueObservable<Delivery> {
    let core = self.core
    return ValueObservable { observer in
      let id = core.addObserver(nameOrPattern, since: since, observer)
      return { core.removeObserver(nameOrPattern, id: id) }
    }
  }

  /// A remote stream's values decoded as `T`. A value that does not decode is skipped, counted
  /// in ``decodingFailures`` and logged; it never stops the stream.
  /// `since` resumes as for ``stream(_:since:)``.
  public func stream<T: Decodable>(
    _ nameOrPattern: String, as type: T.Type, since: String? = nil
  ) -> ValueObservable<T> {
    let deliveries = stream(nameOrPattern, since: since)
    let core = self.core
    return ValueObservable { observer in
      let decoder = JSONDecoder()
      return deliveries.subscribe { delivery in
        do {
          observer.next(try decoder.decode(T.self, from: delivery.value))
        } catch {
          core.state.withLock { $0.decodingFailures += 1 }
          core.logger.warning(
            "skipping a value that does not decode",
            metadata: [
              "stream": "\(delivery.stream)", "type": "\(T.self)", "value": "\(delivery.valueText)",
            ])
        }
      }.unsubscribe
    }
  }

  /// How many values ``stream(_:as:since:)`` skipped because they did not decode.
  public var decodingFailures: Int { core.state.withLock { $0.decodingFailures } }

  /// The connection's state, now and at every change; a new observer gets the current state
  /// at once.
  public var connectionState: ValueObservable<ConnectionState> {
    let core = self.core
    return ValueObservable { observer in
      let id = core.addStateObserver(observer)
      return { core.removeStateObserver(id) }
    }
  }

  /// The connection's state now.
  public var currentState: ConnectionState { core.state.withLock { $0.connection } }
}
