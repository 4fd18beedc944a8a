/// The fields of a request target's query, `name=value&…` with percent-escapes and `+` for
/// space decoded (the `application/x-www-form-urlencoded` form a browser's `URLSearchParams`
/// writes). A field may repeat: `/sse?stream=a&stream=b`.
struct HTTPQuery {
  /// The fields in their order.
  let fields: [(name: String, value: String)]

  /// The fields of `query`, what followed the `?` (nil: none). A field without `=` has an
  /// empty value; an escape that is not two hex digits is kept as written.
  init(_ query: String?) {
    fields = (query ?? "").split(separator: "&").map { field in
      let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
    }
  }

  /// Every value of `name`, in order.
  func values(_ name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  /// The first value of `name`.
  func first(_ name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  /// `text` with `+` as space and `%XX` as its byte; invalid UTF-8 becomes U+FFFD.
  private static func decode(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var rest = text.utf8[...]
    while let byte = rest.popFirst() {
      switch byte {
      case UInt8(ascii: "+"):
        bytes.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        if rest.count >= 2, let high = hexDigit(rest[rest.startIndex]),
          let low = hexDigit(rest[rest.index(after: rest.startIndex)])
        {
          bytes.append(high << 4 | low)
          rest = rest.dropFirst(2)
        } else {
          bytes.append(byte)
        }
      default:
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
