#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ObservableClient {
  /// Registers a last will: `value`, encoded as JSON, which the server publishes to `stream`
  /// once when this client's connection ends without withdrawing it (a crash, a vanished
  /// network, a reset, ``close()``).
  ///
  /// The client keeps the will and registers it again on every connection it makes, so it
  /// stays in force across reconnects; the server publishes it each time a connection ends.
  /// One will per client: a new one replaces the old. While reconnecting, this throws
  /// ``ClientError/notConnected`` and the will is registered with the next connection.
  ///
  /// - Parameters:
  ///   - stream: The topic's name (not a pattern).
  ///   - value: Encoded with `JSONEncoder`; not `nil` (a null value withdraws).
  ///   - retain: Whether the published will is kept as the stream's last value.
  /// - Throws: ``ClientError/server(code:message:)`` with the server's code (`bad_name`,
  ///   `read_only`…), after which the client keeps no will.
  public func setWill<T: Encodable>(
    _ stream: String, _ value: T, retain: Bool = false
  ) async throws(ClientError) {
    let json: Data
    do {
      json = try JSONEncoder().encode(value)
    } catch {
      throw .encodingFailed("\(error)")
    }
    try await setWill(stream, json: json, retain: retain)
  }

  /// Registers a last will given as JSON text, as ``setWill(_:_:retain:)`` does.
  public func setWill(_ stream: String, json: Data, retain: Bool = false) async throws(ClientError)
  {
    let line = RequestLine.will(stream, value: Array(json), retain: retain)
    try await core.registerWill(ClientCore.Will(stream: stream, line: line)).get()
  }

  /// Withdraws the last will, so that the end of the connection publishes nothing; the client
  /// no longer registers it on reconnecting. Withdrawing when there is none does nothing.
  ///
  /// While reconnecting it succeeds at once: no connection holds the will, and the next one
  /// does not register it.
  public func withdrawWill() async throws(ClientError) {
    try await core.registerWill(nil).get()
  }
}
