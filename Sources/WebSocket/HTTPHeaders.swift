/// One header field as it arrived: the name's spelling is kept, lookups ignore case.
public struct HTTPHeaderField: Sendable, Hashable {
  /// The name as the client spelled it.
  public let name: String
  /// The value with surrounding whitespace removed.
  public let value: String
  /// `name` in lower case, computed once because every lookup compares it.
  let lowercasedName: String

  /// A field; the name is compared without regard to case.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
    self.lowercasedName = name.lowercased()
  }
}

/// The header fields of a request, in arrival order, with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Hashable, Sequence {
  /// Every field in the order received, repeats included.
  public private(set) var fields: [HTTPHeaderField] = []

  /// Headers made of `fields`.
  public init(_ fields: [HTTPHeaderField] = []) {
    self.fields = fields
  }

  /// Adds a field after the others.
  public mutating func append(name: String, value: String) {
    fields.append(HTTPHeaderField(name: name, value: value))
  }

  /// Iterates over the fields in arrival order.
  public func makeIterator() -> IndexingIterator<[HTTPHeaderField]> {
    fields.makeIterator()
  }

  /// Every value of the field `name`, in arrival order.
  public func values(_ name: String) -> [String] {
    let wanted = name.lowercased()
    return fields.filter { $0.lowercasedName == wanted }.map(\.value)
  }

  /// The field's value, repeats joined by `", "` as RFC 9110 section 5.3 combines them;
  /// nil when the field is absent.
  public subscript(name: String) -> String? {
    let all = values(name)
    return all.isEmpty ? nil : all.joined(separator: ", ")
  }

  /// How many times the field `name` appears.
  public func count(_ name: String) -> Int {
    let wanted = name.lowercased()
    return fields.reduce(0) { $0 + ($1.lowercasedName == wanted ? 1 : 0) }
  }

  /// The elements of a comma-separated list field (`Connection`, `Upgrade`), lower-cased,
  /// trimmed and without the empty elements RFC 9110 section 5.6.1 tells recipients to skip.
  public func tokens(_ name: String) -> [String] {
    values(name).flatMap { value in
      value.split(separator: ",").compactMap { element -> String? in
        let trimmed = element.trimmingOptionalWhitespace()
        return trimmed.isEmpty ? nil : trimmed.lowercased()
      }
    }
  }

  /// Whether the list field `name` holds `token`, compared without regard to case.
  public func contains(token: String, in name: String) -> Bool {
    tokens(name).contains(token.lowercased())
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
  func trimmingOptionalWhitespace() -> String {
    let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isWhitespace($0) }),
      let last = lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
