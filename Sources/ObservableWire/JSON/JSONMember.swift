/// One `key: value` pair of a top-level JSON object, as found by ``JSONScanner/scanObject(_:)``.
///
/// The value stays undecoded as a byte range so that the hot path pays only for the members it
/// actually reads; a request reads a few known keys and the published `"value"` is forwarded as
/// the bytes that arrived.
package struct JSONMember: Sendable {
  /// The decoded key. Duplicate keys are reported as separate members, in document order, because
  /// RFC 8259 leaves their meaning to the receiver and silently dropping one would hide that choice.
  package let key: String
  /// Byte range of the raw value token(s), relative to the buffer that was scanned. For strings it
  /// includes the quotes, so it can be handed straight to ``JSONScanner/decodeString(_:_:)``.
  package let value: Range<Int>
  /// What the value is, so callers can type-check without looking at the bytes again.
  package let kind: JSONValueKind
}
