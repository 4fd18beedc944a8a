/// The request fields of topic history: `pos` and `since` on `subscribe`, `limit` on `history`.
extension RequestFields {
  /// Reads `pos`, `since` and `limit` into `request`, refusing a field of the wrong type.
  func readHistoryFields(
    into request: inout Request, _ line: UnsafeRawBufferPointer
  ) throws(RequestRejection) {
    if let positions {
      guard positions.kind == .bool else {
        throw rejection(.badRequest, "\"pos\" must be a boolean")
      }
      request.positions = line[positions.value.lowerBound] == UInt8(ascii: "t")
    }
    request.since = try string(since, in: line)
    if let limit {
      guard limit.kind == .number, let count = Self.count(line[limit.value]) else {
        throw rejection(.badRequest, "\"limit\" must be a whole number from 1 to 1000000")
      }
      request.limit = count
    }
  }

  /// The whole number `digits` spells, from 1 to a million, or `nil`.
  private static func count(_ digits: UnsafeRawBufferPointer.SubSequence) -> Int? {
    guard !digits.isEmpty, digits.count <= 7 else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return (1...1_000_000).contains(value) ? value : nil
  }
}
