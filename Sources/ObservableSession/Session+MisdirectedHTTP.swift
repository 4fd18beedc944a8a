import ObservableWire

/// An HTTP request sent to the line port.
extension Session {
  /// Answers an HTTP request line once, not once per header line after it, and ends the
  /// connection: the client waits for an HTTP response, not for lines. Returns `false`, as
  /// ``handle(_:)`` does when the rest of the input is not read as requests.
  func answerMisdirectedHTTP() -> Bool {
    reject(op: nil, id: nil, MisdirectedHTTP.error)
    closing = true
    output.finish("HTTP request on the line port")
    return false
  }
}
