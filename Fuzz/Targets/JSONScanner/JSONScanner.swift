import FuzzSupport

@testable import ObservableWire

/// Fuzzes the strict JSON scanner: both entry points, every range it reports and string decoding.
///
/// Properties beyond not crashing: `scanValue` and `scanObject` agree; an accepted document's
/// range holds exactly the value, with only whitespace around it, and scans alone to the same
/// kind; object members lie in order inside the object and each scans alone to its kind; decoded
/// strings survive an encode and decode; and a rejection's offset names the first bad byte, so
/// the input cut there is either valid or ends too early.
@main
enum JSONScannerTarget {
  /// Starts libFuzzer, which calls ``check(_:)`` with each input.
  static func main() {
    FuzzDriver.run { data, size in
      JSONScannerTarget.check(FuzzDriver.bytes(data, size))
      return 0
    }
  }

  private static func check(_ input: UnsafeRawBufferPointer) {
    let value: Result<(range: Range<Int>, kind: JSONValueKind), JSONSyntaxError> = Result {
      () throws(JSONSyntaxError) in try JSONScanner.scanValue(input)
    }
    let object = Result { () throws(JSONSyntaxError) in try JSONScanner.scanObject(input) }
    switch (value, object) {
    case (.success(let document), .success(let members)):
      checkDocument(input, document.range, document.kind)
      require(
        (members != nil) == (document.kind == .object),
        "scanObject returned members \(members != nil) for a \(document.kind)")
      if let members { checkMembers(input, members, in: document.range) }
    case (.failure(let error), .failure(let objectError)):
      require(error == objectError, "scanValue threw \(error) but scanObject threw \(objectError)")
      checkErrorOffset(input, error)
    default:
      require(false, "scanValue gave \(value) but scanObject gave \(object)")
    }
  }

  private static func checkDocument(
    _ input: UnsafeRawBufferPointer, _ range: Range<Int>, _ kind: JSONValueKind
  ) {
    require(
      !range.isEmpty && range.lowerBound >= 0 && range.upperBound <= input.count,
      "range \(range) outside \(input.count) bytes")
    require(
      input[..<range.lowerBound].allSatisfy(isWhitespace)
        && input[range.upperBound...].allSatisfy(isWhitespace),
      "non-whitespace outside the value's range")
    require(!isWhitespace(input[range.lowerBound]), "the range starts with whitespace")
    require(!isWhitespace(input[range.upperBound - 1]), "the range ends with whitespace")
    let alone = UnsafeRawBufferPointer(rebasing: input[range])
    let again = try? JSONScanner.scanValue(alone)
    require(
      again?.range == 0..<alone.count && again?.kind == kind,
      "the value alone scans as \(String(describing: again)), not \(kind)")
    if kind == .string { checkStringRoundTrip(input, range) }
  }

  private static func checkMembers(
    _ input: UnsafeRawBufferPointer, _ members: [JSONMember], in range: Range<Int>
  ) {
    var previousEnd = range.lowerBound
    for member in members {
      require(
        member.value.lowerBound > previousEnd && member.value.upperBound < range.upperBound,
        "member \(member.key.debugDescription) at \(member.value) is out of order or outside")
      previousEnd = member.value.upperBound
      let alone = UnsafeRawBufferPointer(rebasing: input[member.value])
      let scanned = try? JSONScanner.scanValue(alone)
      require(
        scanned?.range == 0..<alone.count && scanned?.kind == member.kind,
        "member \(member.key.debugDescription) scans as \(String(describing: scanned))")
      if member.kind == .string { checkStringRoundTrip(input, member.value) }
    }
  }

  /// Decoding, encoding and decoding again must give the same text.
  private static func checkStringRoundTrip(_ input: UnsafeRawBufferPointer, _ range: Range<Int>) {
    let decoded = JSONScanner.decodeString(input, range)
    var encoded: [UInt8] = []
    JSONStringEncoding.append(decoded, to: &encoded)
    let again = encoded.withUnsafeBytes { bytes -> String? in
      guard let scanned = try? JSONScanner.scanValue(bytes), scanned.kind == .string else {
        return nil
      }
      return JSONScanner.decodeString(bytes, scanned.range)
    }
    require(again == decoded, "\(decoded.debugDescription) re-encoded decodes as \(again ?? "nil")")
  }

  /// The bytes before the reported offset must be a valid document or a valid beginning of one:
  /// any error in them may only be that they end too early.
  private static func checkErrorOffset(_ input: UnsafeRawBufferPointer, _ error: JSONSyntaxError) {
    require(
      error.offset >= 0 && error.offset <= input.count,
      "error offset \(error.offset) outside \(input.count) bytes")
    guard error.offset < input.count else { return }
    let prefix = UnsafeRawBufferPointer(rebasing: input[..<error.offset])
    do {
      _ = try JSONScanner.scanValue(prefix)
    } catch {
      // Running out of input inside a string is reported at the string's opening quote.
      require(
        error.offset == prefix.count || error.reason == "unterminated string",
        "the input fails with \"\(error)\" before the first bad byte the scanner reported")
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
