/// A request line that could not be turned into a ``Request``, with what its error reply needs.
struct RequestRejection: Error {
  /// The `op` as the client sent it, or `nil` when it could not be read.
  var op: String?
  /// The raw JSON `id`, when the request had a readable one.
  var id: [UInt8]?
  var error: ProtocolError
}
