import TestSupport

extension TestServer {
  /// A TLS subscriber to `stream` whose receive buffer is a few KB (``ReceiveBuffer/shrink(_:)``),
  /// greeting and reply read: until it reads, the server's sends to it are cut short and its
  /// deliveries wait in the server.
  func stalledTLSSubscriber(_ certificates: TestCertificates, to stream: String) throws
    -> TLSLineClient
  {
    let client = try connectTLS(certificates)
    ReceiveBuffer.shrink(client.fd)
    _ = try client.readLine()
    try client.send("subscribe \(stream)")
    _ = try client.readLine(containing: #""ok":true"#)
    return client
  }
}
