/// Recognises the most common request, `{"op":"publish","stream":"NAME","value":VALUE}`
/// written compactly in that key order, without building a member list.
///
/// Publishing is the hot path: at a million lines a second, the general parser's allocations
/// and string switches are most of the cost. Anything else, including the same request with
/// other spacing, key order or an `id`, returns `nil` and takes the general path, which gives
/// the same result.
///
/// ``match(_:)`` also takes a retained publish, the same with `,"retain":true` after the value:
/// the general parser was most of a retained publish's cost on the loop.
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
    /// The line from `"stream"` to its closing brace: the delivery line of this publish
    /// without its opening brace and newline.
    package let deliveryBody: UnsafeRawBufferPointer

    /// The request these parts stand for.
    package var request: Request {
      var request = Request(op: .publish)
      request.stream = String(decoding: name, as: UTF8.self)
      request.value = value
      return request
    }
  }

  /// The request, when `line` has exactly this shape, or that of a retained publish, with a
  /// valid name and a valid JSON value.
  package static func match(_ line: UnsafeRawBufferPointer) -> Request? {
    let endCount = retainedEnd.utf8CodeUnitCount
    guard line.count > endCount, line.hasPrefix(retainedEnd, at: line.count - endCount) else {
      return parts(of: line)?.request
    }
    var request = parts(of: line, endingWith: retainedEnd)?.request
    request?.retain = true
    return request
  }

  /// The name and value, when `line` has exactly this shape with a valid name and a valid JSON
  /// value; the session batches such a publish without making a `String` or a ``Request``.
  /// Never a retained publish, which the session does not batch.
  package static func parts(of line: UnsafeRawBufferPointer) -> Parts? {
    parts(of: line, endingWith: plainEnd)
  }

  /// The parts of `line` when it has this shape and ends, after the value, with `ending`.
  private static func parts(of line: UnsafeRawBufferPointer, endingWith ending: StaticString)
    -> Parts?
  {
    let prefixCount = prefix.utf8CodeUnitCount
    let middleCount = middle.utf8CodeUnitCount
    let endCount = ending.utf8CodeUnitCount
    guard line.count > prefixCount + middleCount + endCount + 1,
      line.hasPrefix(ending, at: line.count - endCount), line.hasPrefix(prefix)
    else { return nil }
    var end = prefixCount
    // Names need no unescaping when they match the name rules; anything else goes the long way.
    while end < line.count, isNameByte(line[end]) { end += 1 }
    let nameEnd = end
    guard nameEnd > prefixCount, line.hasPrefix(middle, at: nameEnd) else { return nil }
    let value = UnsafeRawBufferPointer(
      rebasing: line[(nameEnd + middleCount)..<(line.count - endCount)])
    guard let scanned = try? JSONScanner.scanValue(value), scanned.range == 0..<value.count
    else { return nil }
    return Parts(
      name: UnsafeRawBufferPointer(rebasing: line[prefixCount..<nameEnd]), value: value,
      deliveryBody: UnsafeRawBufferPointer(rebasing: line[opMember.utf8CodeUnitCount...]))
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
