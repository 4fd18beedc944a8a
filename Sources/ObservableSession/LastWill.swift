/// A connection's last will: the value the server publishes once, through the normal publish
/// path, when the connection ends without withdrawing it (`bye`, or a `will` with a null
/// value).
///
/// It holds a copy of the value, so a will costs its connection at most `--max-line-bytes`
/// (the request that carried it could be no longer).
package struct LastWill: Sendable, Equatable {
  /// The topic the will is published to, checked as a publish's is when it was registered.
  package var stream: String
  /// The value as JSON text, as the request carried it.
  package var value: [UInt8]
  /// Whether the published will is kept as the topic's retained value.
  package var retain: Bool

  /// A will for `stream`.
  package init(stream: String, value: [UInt8], retain: Bool) {
    self.stream = stream
    self.value = value
    self.retain = retain
  }

  /// Whether `value` is the JSON literal `null`, which withdraws a will rather than registers
  /// one (so a will's value is never `null`).
  static func withdraws(_ value: UnsafeRawBufferPointer) -> Bool {
    value.count == 4 && value.elementsEqual("null".utf8)
  }
}
