/// A request line that could not be turned into a ``Request``, with what its error reply needs.
package struct RequestRejection: Error {
  /// The `op` as the client sent it, or `nil` when it could not be read.
  package var op: String?
  /// The raw JSON `id`, when the request had a readable one.
  package var id: [UInt8]?
  package var error: ProtocolError

  /// A rejection with what its error reply needs.
  package init(op: String? = nil, id: [UInt8]? = nil, error: ProtocolError) {
    self.op = op
    self.id = id
    self.error = error
  }
}
