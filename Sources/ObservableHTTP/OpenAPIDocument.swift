import WebSocket

/// The OpenAPI 3 document of the HTTP listener, served at `GET /openapi.json`: every path it
/// answers, the HTTP API's in full. A test runs schemathesis against a running server with it,
/// so it stays true to what the server answers.
///
/// Kept as JSON text in parts (one file each, so each stays short) and joined once.
enum OpenAPIDocument {
  /// The whole document.
  static let text: String = {
    "{" + head.trimmingBraces() + #","paths":{"# + apiPaths.trimmingBraces() + ","
      + otherPaths.trimmingBraces() + #"},"components":"# + components + "}\n"
  }()

  /// The answer to `GET /openapi.json`.
  static let response = HTTPResponse(
    status: .ok, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")],
    body: Array(text.utf8), closesConnection: true)
}

extension String {
  /// The text between the outer `{` and `}` of a JSON object's text.
  fileprivate func trimmingBraces() -> Substring {
    guard let open = firstIndex(of: "{"), let close = lastIndex(of: "}") else { return "" }
    return self[index(after: open)..<close]
  }
}
