import TestSupport
import XCTest

@testable import WebSocket

final class SHA1Base64Tests: XCTestCase {
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  /// FIPS 180 / RFC 3174 test vectors.
  func testSHA1Vectors() {
    XCTAssertEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    XCTAssertEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    XCTAssertEqual(
      hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    XCTAssertEqual(
      hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
      "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  /// RFC 4648 section 10.
  func testBase64Vectors() {
    let vectors = [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]
    for (plain, encoded) in vectors {
      XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
      XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
    }
  }

  func testBase64RoundTripsEveryLengthAndByte() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes, "length \(length)")
    }
    XCTAssertEqual(Base64.decode(Base64.encode(Array(0...255))), Array(0...255))
  }

  func testBase64RefusesNonCanonicalText() {
    for text in ["Zg", "Zg=", "Z===", "Zh==", "Zm9=", "Zg==Zg==", "Zm 9", "Zm9v\n", "=Zm9"] {
      XCTAssertNil(Base64.decode(text), text)
    }
  }

  /// RFC 6455 section 1.3's example.
  func testAcceptForTheRFCSampleKey() {
    XCTAssertEqual(
      WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  /// Python's hashlib and base64 as an independent second opinion on many inputs.
  func testAcceptAgreesWithPython() async throws {
    let keys = (0..<50).map { _ in Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255) }) }
    let script = """
      import base64, hashlib, sys
      for key in sys.stdin.read().split():
          digest = hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
          print(base64.b64encode(digest).decode())
      """
    let output = try await PythonProcess.run(
      arguments: ["-c", script], input: Array(keys.joined(separator: "\n").utf8))
    let expected = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    XCTAssertEqual(keys.map(WebSocketHandshake.accept(forKey:)), expected)
  }
}
