import ObservableWire

extension Session {
  /// `list`: a page of the streams whose names match the request's pattern, after its `after`;
  /// the cluster's list when the node is clustered and connected.
  func list(_ request: Request) throws(ProtocolError) {
    if let link = context.cluster, link.isConnected {
      return try listClustered(request, link)
    }
    let shown = try authorizeList()
    let page = try context.registry.listPage(
      matching: request.stream, after: request.after,
      limit: min(request.limit ?? StreamListEncoder.pageSize, StreamListEncoder.pageSize))
    let localOnly = localOnlyStreams()
    ok(request) {
      StreamListEncoder.append(
        shown.map { page.streams.filter($0) } ?? page.streams, next: page.next,
        localOnly: localOnly, to: &$0)
    }
  }
}
