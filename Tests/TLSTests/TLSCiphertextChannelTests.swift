import TLS
import XCTest

/// The session's own BIO, with both ends in memory: records go straight into the caller's
/// bytes after what they held, ciphertext fed in pieces of any size is read whole, and the
/// end of the stream is told apart from "more to come".
final class TLSCiphertextChannelTests: CertificateTestCase {
  private func pair() throws -> (client: TLSSession, server: TLSSession) {
    let server = try TLSContext(
      server: TLSServerConfiguration(
        certificateChainFile: certificates.path("server.pem"),
        privateKeyFile: certificates.path("server.key")))
    let client = try TLSContext(
      client: TLSClientConfiguration(
        serverVerification: .verify(caFile: certificates.path("ca.pem"))))
    let pair = (
      try TLSSession(context: client, serverName: "localhost"), try TLSSession(context: server)
    )
    try pair.0.startHandshake()
    while !(pair.0.isHandshakeComplete && pair.1.isHandshakeComplete) || pair.0.hasCiphertext
      || pair.1.hasCiphertext
    {
      _ = try pass(from: pair.0, to: pair.1)
      _ = try pass(from: pair.1, to: pair.0)
    }
    return pair
  }

  /// Feeds what `from` has for its peer to `to` in pieces of `piece` bytes, reading after
  /// each; returns the plaintext and whether `to` saw close_notify.
  private func pass(
    from: TLSSession, to: TLSSession, _ extra: [UInt8] = [], piece: Int = 1 << 16
  ) throws -> (plaintext: [UInt8], closed: Bool) {
    var ciphertext = extra
    from.takeCiphertext(appendingTo: &ciphertext)
    return try receive(ciphertext, into: to, piece: piece)
  }

  private func receive(_ ciphertext: [UInt8], into session: TLSSession, piece: Int) throws
    -> (plaintext: [UInt8], closed: Bool)
  {
    var plaintext: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    for start in stride(from: 0, to: ciphertext.count, by: piece) {
      ciphertext.withUnsafeBytes {
        session.feed(UnsafeRawBufferPointer(rebasing: $0[start..<min(start + piece, $0.count)]))
      }
      reading: while true {
        switch try buffer.withUnsafeMutableBytes({ try session.read(into: $0) }) {
        case .plaintext(let count): plaintext += buffer[..<count]
        case .handshakeCompleted: continue
        case .needsInput: break reading
        case .closedByPeer: return (plaintext, true)
        }
      }
    }
    return (plaintext, false)
  }

  func testRecordsGoAfterWhatTheBytesHeldAndArriveWholeInOddPieces() throws {
    let (client, server) = try pair()
    let first = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
    let second = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    var ciphertext: [UInt8] = []
    try first.withUnsafeBytes { try server.send($0, appendingTo: &ciphertext) }
    let afterFirst = Array(ciphertext)
    try second.withUnsafeBytes { try server.send($0, appendingTo: &ciphertext) }
    XCTAssertEqual(Array(ciphertext[..<afterFirst.count]), afterFirst)
    // Ten records at least (16 KiB of plaintext each), each with its own overhead.
    XCTAssertGreaterThan(ciphertext.count, first.count + second.count + 10 * 17)
    XCTAssertFalse(server.hasCiphertext)
    let received = try receive(ciphertext, into: client, piece: 7)
    XCTAssertEqual(received.plaintext, first + second)
    XCTAssertFalse(received.closed)
  }

  func testLentCiphertextIsReadWhereItIsAndWhatIsLeftIsKept() throws {
    let (client, server) = try pair()
    let sent = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    var ciphertext: [UInt8] = []
    try sent.withUnsafeBytes { try server.send($0, appendingTo: &ciphertext) }
    var plaintext: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    // One socket buffer reused for every read, as the loop's is: pieces of 1,000 bytes end
    // inside records, and nothing may be read from it after its lending ended.
    var socketBuffer = [UInt8](repeating: 0, count: 1_000)
    let held = client.heldBytes
    for start in stride(from: 0, to: ciphertext.count, by: socketBuffer.count) {
      let piece = ciphertext[start..<min(start + socketBuffer.count, ciphertext.count)]
      socketBuffer.replaceSubrange(0..<piece.count, with: piece)
      try socketBuffer.withUnsafeBytes { lent in
        try client.lending(UnsafeRawBufferPointer(rebasing: lent[..<piece.count])) {
          while case .plaintext(let count) = try buffer.withUnsafeMutableBytes({
            try client.read(into: $0)
          }) {
            plaintext += buffer[..<count]
          }
        }
      }
      for index in socketBuffer.indices { socketBuffer[index] = 0xEE }
    }
    XCTAssertEqual(plaintext, sent)
    // Nothing was copied into the channel: OpenSSL read every lent byte where it was, a
    // record cut short into its own record buffer.
    XCTAssertEqual(client.heldBytes, held)
  }

  func testCloseNotifyWaitsUntilTakenAndEndsTheStream() throws {
    let (client, server) = try pair()
    var ciphertext: [UInt8] = []
    try Array("last line\n".utf8).withUnsafeBytes { try server.send($0, appendingTo: &ciphertext) }
    server.close()
    XCTAssertTrue(server.hasCiphertext)
    let received = try pass(from: server, to: client, ciphertext, piece: 1)
    XCTAssertEqual(String(decoding: received.plaintext, as: UTF8.self), "last line\n")
    XCTAssertTrue(received.closed)
    XCTAssertFalse(server.hasCiphertext)
  }

  func testTheEndOfTheStreamInsideARecordIsTruncation() throws {
    let (client, server) = try pair()
    var ciphertext: [UInt8] = []
    try Array("cut short\n".utf8).withUnsafeBytes { try server.send($0, appendingTo: &ciphertext) }
    let received = try receive(Array(ciphertext.dropLast(3)), into: client, piece: 5)
    XCTAssertEqual(received.plaintext, [])
    client.feedEndOfStream()
    var buffer = [UInt8](repeating: 0, count: 64)
    XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try client.read(into: $0) }) {
      XCTAssertEqual(($0 as? TLSFailure)?.kind, .truncated)
    }
  }
}
