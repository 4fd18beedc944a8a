/// Lines with positions: `{"stream":NAME,"value":V,"pos":"EPOCH-SEQUENCE"}\n`, for the
/// subscriptions that asked for them (`"pos":true` or `"since"`) and for the `history` op.
extension DeliveryEncoder {
  /// Appends `line`, one whole delivery line ending in `}\n`, with `,"pos":POSITION` added
  /// before its closing brace.
  package static func append(
    line: UnsafeRawBufferPointer, position: StreamPosition, to out: inout [UInt8]
  ) {
    out.append(bytes: UnsafeRawBufferPointer(rebasing: line[..<(line.count - 2)]))
    out.append(literal: #","pos":""#)
    position.append(to: &out)
    out.append(literal: "\"}\n")
  }

  /// The number of bytes ``append(line:position:to:)`` adds to a line, at most.
  package static let positionOverhead = 38
}
