/// Recognises the most common request, `{"op":"publish","stream":"NAME","value":VALUE}`
/// written compactly in that key order, without building a member list.
///
/// Publishing is the hot path: at a million lines a second, the general parser's allocations
/// and string switches are most of the cost. Anything else, including the same request with
/// other spacing, key order or an `id`, returns `nil` and takes the general path, which gives
/// the same result.
///
/// It also takes a retained publish, the same with `,"retain":true` after the value: the
/// general parser was most of a retained publish's cost on the loop.
package enum PublishShape {
  private static let prefix: StaticString = #"{"op":"publish","stream":""#
  /// The end of a retained publish of this shape, after its value.
  private static let retainedEnd: StaticString = #","retain":true}"#
  /// The end of a plain publish of this shape, after its value.
  private static let plainEnd: StaticString = "}"
  /// The start of `prefix` that a delivery line does not share: from the key after it to the
  /// closing brace, the request reads `"stream":"NAME","value":V}`, exactly as its delivery.
  private static let opMember: StaticString = #"{"op":"publish","#
  private static let middle: StaticString = #"","value":"#

  /// The name and value of a line of this shape, both pointing into the line.
  package struct Parts {
    /// The stream's name as it was sent; it matches the name rules, so it needs no unescaping.
    package let name: UnsafeRawBufferPointer
    /// The raw, validated JSON value.
    package let value: UnsafeRawBufferPointer
    /// Of a plain publish, the line from `"stream"` to its closing brace: the delivery line of
    /// this publish without its opening brace and newline. Of a retained one, the same up to
    /// the end of the value, without the closing brace.
    package let deliveryBody: UnsafeRawBufferPointer
    /// Whether the line ends with `,"retain":true}`: a retained publish, never batched.
    package let retain: Bool

    /// The request these parts stand for.
    package var request: Request {
      var request = Request(op: .publish)
      request.stream = String(decoding: name, as: UTF8.self)
      request.value = value
      request.retain = retain
      return request
    }
  }

  /// The request, when `line` has exactly this shape, or that of a retained publish, with a
  /// valid name and a valid JSON value.
  package static func match(_ line: UnsafeRawBufferPointer) -> Request? {
    parts(of: line)?.request
  }

  /// The name and value, when `line` has exactly this shape, or that of a retained publish,
  /// with a valid name and a valid JSON value; the session batches a plain publish without
  /// making a `String` or a ``Request``, and takes a retained one straight to its handling.
  ///
  /// One scan tells both apart: a retained publish also ends in `}`, and its value only fails
  /// to fill what lies before it. Checked in that failed branch, the plain publish pays
  /// nothing for it, and the retained one is not read twice (by this, then by ``match(_:)``).
  package static func parts(of line: UnsafeRawBufferPointer) -> Parts? {
    let prefixCount = prefix.utf8CodeUnitCount
    let middleCount = middle.utf8CodeUnitCount
    let endCount = plainEnd.utf8CodeUnitCount
    guard line.count > prefixCount + middleCount + endCount + 1,
      line.hasPrefix(plainEnd, at: line.count - endCount), line.hasPrefix(prefix)
    else { return nil }
    var end = prefixCount
    // Names need no unescaping when they match the name rules; anything else goes the long way.
    while end < line.count, isNameByte(line[end]) { end += 1 }
    let nameEnd = end
    guard nameEnd > prefixCount, line.hasPrefix(middle, at: nameEnd) else { return nil }
    let name = UnsafeRawBufferPointer(rebasing: line[prefixCount..<nameEnd])
    let valueStart = nameEnd + middleCount
    let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<(line.count - endCount)])
    guard let scanned = try? JSONScanner.scanValue(value), scanned.range == 0..<value.count
    else { return retainedParts(of: line, name: name, valueStart: valueStart) }
    return Parts(
      name: name, value: value,
      deliveryBody: UnsafeRawBufferPointer(rebasing: line[opMember.utf8CodeUnitCount...]),
      retain: false)
  }

  /// The parts of `line`, whose name is `name` and whose value starts at `valueStart`, when it
  /// ends with `,"retain":true}` right after a valid value.
  @inline(never)
  private static func retainedParts(
    of line: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer, valueStart: Int
  ) -> Parts? {
    let valueEnd = line.count - retainedEnd.utf8CodeUnitCount
    guard valueEnd > valueStart, line.hasPrefix(retainedEnd, at: valueEnd) else { return nil }
    let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])
    guard let scanned = try? JSONScanner.scanValue(value), scanned.range == 0..<value.count
    else { return nil }
    return Parts(
      name: name, value: value,
      deliveryBody: UnsafeRawBufferPointer(rebasing: line[opMember.utf8CodeUnitCount..<valueEnd]),
      retain: true)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
      UInt8(ascii: "."):
      true
    default: false
    }
  }
}
