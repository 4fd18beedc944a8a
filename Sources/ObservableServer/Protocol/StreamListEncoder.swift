/// Writes the `streams` field of a `list` reply.
enum StreamListEncoder {
  /// Appends `,"streams":[{"name":…,"kind":…,"subscribers":N},…]`.
  static func append(
    _ streams: [(name: String, kind: StreamKind, subscribers: Int)], to out: inout [UInt8]
  ) {
    ReplyEncoder.key("streams", to: &out)
    out.append(UInt8(ascii: "["))
    for (index, stream) in streams.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"name":"#.utf8)
      JSONStringEncoding.append(stream.name, to: &out)
      out.append(contentsOf: #","kind":""#.utf8)
      out.append(contentsOf: stream.kind.rawValue.utf8)
      out.append(contentsOf: #"","subscribers":"#.utf8)
      out.append(decimal: stream.subscribers)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
  }
}
