/// How fan-out subscribers connect (`--transport`).
enum BenchTransport: String, Sendable {
  /// The line protocol over TCP.
  case tcp
  /// The same protocol over WebSocket on the server's `--http` listener.
  case webSocket = "websocket"
  /// The line protocol over TCP, each subscriber sending `compress` after subscribing, so that
  /// the server deflates every value once per subscriber.
  case deflate
  /// Server-Sent Events (`GET /sse?stream=…`) on the server's `--http` listener.
  case serverSentEvents = "sse"
}
