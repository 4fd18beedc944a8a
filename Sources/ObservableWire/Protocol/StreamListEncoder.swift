/// Writes the `streams` and `next` fields of a `list` reply.
package enum StreamListEncoder {
  /// The most streams one `list` reply holds, about 100 KB: a reply never passes what may wait
  /// for a client, however many topics there are; `next` says where the following page starts.
  package static let pageSize = 1000

  /// Appends `,"streams":[{"name":…,"kind":…,"subscribers":N},…]`, and `,"next":NAME` when
  /// more streams follow. With `localOnly` (a clustered server), each stream also says
  /// whether its values stay on this node.
  package static func append(
    _ streams: [(name: String, kind: StreamKind, subscribers: Int)], next: String?,
    localOnly: ((StreamKind) -> Bool)? = nil, to out: inout [UInt8]
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
      if let localOnly {
        out.append(contentsOf: #","local_only":"#.utf8)
        out.append(contentsOf: (localOnly(stream.kind) ? "true" : "false").utf8)
      }
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    if let next {
      ReplyEncoder.key("next", to: &out)
      JSONStringEncoding.append(next, to: &out)
    }
  }
}
