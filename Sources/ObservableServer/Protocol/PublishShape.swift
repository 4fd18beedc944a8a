/// Recognises the most common request, `{"op":"publish","stream":"NAME","value":VALUE}`
/// written compactly in that key order, without building a member list.
///
/// Publishing is the hot path: at a million lines a second, the general parser's allocations
/// and string switches are most of the cost. Anything else, including the same request with
/// other spacing, key order or an `id`, returns `nil` and takes the general path, which gives
/// the same result.
enum PublishShape {
  private static let prefix = Array(#"{"op":"publish","stream":""#.utf8)
  private static let middle = Array(#"","value":"#.utf8)

  /// The request, when `line` has exactly this shape with a valid name and a valid JSON value.
  static func match(_ line: UnsafeRawBufferPointer) -> Request? {
    guard line.count > prefix.count + middle.count + 2, line.last == UInt8(ascii: "}"),
      line.starts(with: prefix)
    else { return nil }
    var end = prefix.count
    // Names need no unescaping when they match the name rules; anything else goes the long way.
    while end < line.count, isNameByte(line[end]) { end += 1 }
    let nameEnd = end
    guard nameEnd > prefix.count,
      UnsafeRawBufferPointer(rebasing: line[nameEnd...]).starts(with: middle)
    else { return nil }
    let value = UnsafeRawBufferPointer(rebasing: line[(nameEnd + middle.count)..<(line.count - 1)])
    guard let scanned = try? JSONScanner.scanValue(value), scanned.range == 0..<value.count
    else { return nil }
    var request = Request(op: .publish)
    request.stream = String(decoding: line[prefix.count..<nameEnd], as: UTF8.self)
    request.value = value
    return request
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
