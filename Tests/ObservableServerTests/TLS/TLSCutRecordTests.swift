import TLS
import TestSupport
import Testing

/// What a TLS connection receives is read where the socket put it, in the loop's read buffer
/// (``TLSSession/lending(_:_:)``); a record a read cut short must survive the next read, this
/// connection's or another's on the loop, which reuses that buffer.
@Suite("TLS records cut across reads", .timeLimit(.minutes(2)))
struct TLSCutRecordTests {
  @Test func publishesInRecordsCutAcrossReadsArriveWholeAndInOrder() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let subscriber = try server.connectTLS(certificates)
    _ = try subscriber.readLine()
    for topic in ["cut.a", "cut.b"] {
      try subscriber.send("subscribe \(topic)")
      _ = try subscriber.readLine(containing: #""ok":true"#)
    }
    let first = try server.connectTLS(certificates)
    let second = try server.connectTLS(certificates)
    _ = try first.readLine()
    _ = try second.readLine()
    // Each batch is several records of 16 KiB; sent 1,000 bytes a send, most of the server's
    // reads end inside a record, and the two publishers' reads come between each other's.
    let count = 2_000
    func batch(_ topic: String, _ range: Range<Int>) -> [UInt8] {
      Array(
        range.map {
          #"publish \#(topic) "\#(topic)-\#($0)-\#(String(repeating: "v", count: 40))""# + "\n"
        }
        .joined().utf8)
    }
    for start in stride(from: 0, to: count, by: 500) {
      try first.sendRaw(batch("cut.a", start..<start + 500), piece: 1_000)
      try second.sendRaw(batch("cut.b", start..<start + 500), piece: 1_000)
    }
    var next = ["cut.a": 0, "cut.b": 0]
    while next.values.contains(where: { $0 < count }) {
      let line = try subscriber.readLine(timeout: .seconds(20))
      guard line.contains(#""stream":"cut."#) else { continue }
      let topic = line.contains(#""stream":"cut.a""#) ? "cut.a" : "cut.b"
      let expected = "\(topic)-\(next[topic]!)-"
      #expect(line.contains(expected), "\(line) should carry \(expected)")
      if !line.contains(expected) { return }
      next[topic]! += 1
    }
  }
}
