/// How fan-out subscribers connect (`--transport`).
enum BenchTransport: String, Sendable {
  /// The line protocol over TCP.
  case tcp
  /// The same protocol over WebSocket on the server's `--http` listener.
  case webSocket = "websocket"
  /// WebSocket with permessage-deflate as browsers offer it: the server keeps each
  /// subscriber's compression context, so it deflates every value once per subscriber.
  case webSocketDeflate = "websocket-deflate"
  /// WebSocket with permessage-deflate and `server_no_context_takeover`: the server
  /// compresses every value once and shares the frame among these subscribers.
  case webSocketShared = "websocket-shared"
  /// The line protocol over TCP, each subscriber sending `compress` after subscribing, so that
  /// the server deflates every value once per subscriber.
  case deflate
  /// Server-Sent Events (`GET /sse?stream=…`) on the server's `--http` listener.
  case serverSentEvents = "sse"

  /// Whether subscribers connect over WebSocket.
  var isWebSocket: Bool { extensionOffer != nil }

  /// The `Sec-WebSocket-Extensions` the upgrade offers: empty for plain WebSocket, nil for TCP.
  var extensionOffer: String? {
    switch self {
    case .webSocket: ""
    case .webSocketDeflate: "permessage-deflate; client_max_window_bits"
    case .webSocketShared: "permessage-deflate; server_no_context_takeover; client_max_window_bits"
    case .tcp, .deflate, .serverSentEvents: nil
    }
  }

  /// How a table row names the transport after its subscriber count.
  var label: String {
    switch self {
    case .tcp: ""
    case .webSocket: " (WebSocket)"
    case .webSocketDeflate: " (WebSocket, deflate)"
    case .webSocketShared: " (WebSocket, shared deflate)"
    case .deflate: " (deflate)"
    case .serverSentEvents: " (SSE)"
    }
  }
}
