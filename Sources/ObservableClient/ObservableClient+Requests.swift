#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ObservableClient {
  /// Publishes `value`, encoded as JSON, to `stream`.
  ///
  /// - Parameters:
  ///   - stream: The topic's name (not a pattern).
  ///   - value: Encoded with `JSONEncoder`.
  ///   - retain: Whether the server keeps it as the stream's last value, sent first to each new
  ///     subscriber.
  /// - Returns: How many subscriptions received it.
  /// - Throws: ``ClientError/server(code:message:)`` with the server's code (`bad_name`,
  ///   `read_only`…), ``ClientError/notConnected`` while reconnecting, or
  ///   ``ClientError/connectionLost``.
  @discardableResult
  public func publish<T: Encodable>(
    _ stream: String, _ value: T, retain: Bool = false
  ) async throws(ClientError) -> Int {
    let json: Data
    do {
      json = try JSONEncoder().encode(value)
    } catch {
      throw .encodingFailed("\(error)")
    }
    return try await publish(stream, json: json, retain: retain)
  }

  /// Publishes a value given as JSON text to `stream`; the server checks that it is JSON.
  ///
  /// - Parameters:
  ///   - stream: The topic's name (not a pattern).
  ///   - json: One JSON value; line breaks in it become spaces, so it stays one request line.
  ///   - retain: Whether the server keeps it as the stream's last value.
  /// - Returns: How many subscriptions received it.
  @discardableResult
  public func publish(
    _ stream: String, json: Data, retain: Bool = false
  ) async throws(ClientError) -> Int {
    let line = RequestLine.publish(stream, value: Array(json), retain: retain)
    let reply = try await core.request(line, op: "publish").get()
    return reply.receivers ?? 0
  }

  /// Forgets the retained value of `stream`, so that later subscribers get nothing until the
  /// next retained publish; subscribers it was already sent to keep what they received.
  ///
  /// - Parameter stream: The topic's name (not a pattern).
  /// - Returns: Whether the stream had a retained value to forget.
  /// - Throws: ``ClientError/server(code:message:)`` with the server's code (`bad_name`,
  ///   `read_only`, `unavailable` when a cluster cannot reach JetStream…),
  ///   ``ClientError/notConnected`` while reconnecting, or ``ClientError/connectionLost``.
  @discardableResult
  public func clear(_ stream: String) async throws(ClientError) -> Bool {
    let reply = try await core.request(RequestLine.stream("clear", stream), op: "clear").get()
    return reply.cleared ?? false
  }

  /// The streams the server knows, with their kinds and subscriber counts; `filter` (a name
  /// or a pattern) keeps only those it names or matches.
  ///
  /// The server answers at most a page of streams at a time; this asks for every page.
  public func list(matching filter: String? = nil) async throws(ClientError) -> [StreamInfo] {
    var streams: [StreamInfo] = []
    var after: String?
    repeat {
      let reply = try await core.request(RequestLine.list(filter, after: after), op: "list").get()
      streams += reply.streams ?? []
      after = reply.next
    } while after != nil
    return streams
  }

  /// Sends `ping` and returns how long the reply took.
  @discardableResult
  public func ping() async throws(ClientError) -> Duration {
    let start = ContinuousClock.now
    _ = try await core.request(RequestLine.plain("ping"), op: "ping").get()
    return ContinuousClock.now - start
  }
}
