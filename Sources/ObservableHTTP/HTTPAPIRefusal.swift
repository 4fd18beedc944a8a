import WebSocket

/// An HTTP API request refused before it reaches the session, with the answer to send.
struct HTTPAPIRefusal: Error {
  /// The answer.
  let response: HTTPResponse
}
