/// The limits and timeouts of every connection of one server.
package struct ConnectionSettings: Sendable {
  /// The longest request line (or message), in bytes.
  package var maxLineBytes: Int
  /// Bytes that may wait for one client before it is closed as a slow consumer.
  package var maxQueuedBytes: Int
  /// How long a client that closed its side gets to read its last replies.
  package var halfCloseGrace: Duration = .seconds(5)
  /// How often a WebSocket peer is pinged; one that sent nothing between two pings is dropped.
  var webSocketPingInterval: Duration = .seconds(20)
  /// How long an HTTP client may take to send its request head before it gets 408.
  var httpHeadTimeout: Duration = .seconds(10)
  /// The zlib level of a connection that sends `compress`.
  package var deflateLevel = 1
  /// Whether a compressed connection sync-flushes after every line rather than every write.
  package var deflateFlushesEachLine = false
  /// How long a TLS client may take to finish its handshake.
  package var tlsHandshakeTimeout: Duration = .seconds(10)
}
