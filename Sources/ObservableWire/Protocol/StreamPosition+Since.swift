/// The `since` field of a subscribe, read as a position.
extension StreamPosition {
  /// The position `since` spells, or `bad_request` saying what a position looks like.
  package static func since(_ since: String) throws(ProtocolError) -> StreamPosition {
    guard let position = StreamPosition(parsing: since) else {
      throw ProtocolError(
        .badRequest,
        "\"since\" must be a position the server sent, as EPOCH-SEQUENCE (\"\(QuotedPrefix.of(since))\" is not one)"
      )
    }
    return position
  }
}
