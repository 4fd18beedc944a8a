/// Strict RFC 8259 validation of request lines, working in place on the received bytes.
///
/// The scanner never builds a document tree: it reports byte ranges and kinds, and creates
/// `String`s only for object keys and for values a caller explicitly decodes. That keeps the
/// per-line cost to one linear pass whose only heap allocations are the member array and any key
/// too long to be stored inline in a `String`.
package enum JSONScanner {
  /// The deepest container nesting accepted. Legitimate requests are shallow; the limit bounds the
  /// work a hostile client can demand and matches common parsers, including Foundation's.
  static let maximumDepth = 512

  /// Validates exactly one JSON value (RFC 8259) surrounded by optional whitespace; returns the
  /// byte range of the value itself (whitespace trimmed) and its kind.
  package static func scanValue(
    _ bytes: UnsafeRawBufferPointer
  ) throws(JSONSyntaxError) -> (range: Range<Int>, kind: JSONValueKind) {
    // Most published values are one string with nothing around it: checked without a reader.
    // A string at the start is where the reader would scan it too, with the same errors; one
    // that ends early (whitespace or more after it) takes the general way.
    if let base = bytes.baseAddress, !bytes.isEmpty,
      base.load(as: UInt8.self) == UInt8(ascii: "\"")
    {
      let string = try JSONStringToken(base: base, end: bytes.count).scan(openingAt: 0)
      if string.next == bytes.count { return (0..<bytes.count, .string) }
    }
    return try scan(bytes, collectMembers: false).document
  }

  /// If the document (one value plus optional whitespace) is a JSON object, returns its members in
  /// order, duplicates included; returns `nil` for any other valid document and throws for invalid
  /// JSON.
  package static func scanObject(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError)
    -> [JSONMember]?
  {
    let result = try scan(bytes, collectMembers: true)
    return result.document.kind == .object ? result.members : nil
  }

  /// Validates one document like ``scanValue(_:)`` and returns its root's children as well: an
  /// object's members in order, duplicates included, or an array's elements, with empty keys;
  /// none for a scalar. ``JSONValue`` builds its tree from them.
  package static func scanChildren(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError)
    -> (range: Range<Int>, kind: JSONValueKind, children: [JSONMember])
  {
    let result = try scan(bytes, collectMembers: true, collectElements: true)
    return (result.document.range, result.document.kind, result.members)
  }

  private static func scan(
    _ bytes: UnsafeRawBufferPointer, collectMembers: Bool, collectElements: Bool = false
  ) throws(JSONSyntaxError) -> (
    document: (range: Range<Int>, kind: JSONValueKind), members: [JSONMember]
  ) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSONSyntaxError(offset: 0, reason: "unexpected end of input")
    }
    // Stack memory for the nesting bits keeps validation free of heap allocation.
    return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: JSONReader.nestingWords) {
      (nesting) throws(JSONSyntaxError) in
      nesting.initialize(repeating: 0)
      var reader = JSONReader(base: base, count: bytes.count, nesting: nesting.baseAddress!)
      let document = try reader.scanDocument(
        collectMembers: collectMembers, collectElements: collectElements)
      return (document, reader.takeMembers())
    }
  }
}
