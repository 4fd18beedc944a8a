import XCTest

@testable import NATS

/// The URLs users write and the addresses servers advertise.
final class NATSServerURLTests: XCTestCase {
  func testForms() throws {
    let cases: [(String, NATSServerURL)] = [
      ("nats://127.0.0.1:4223", NATSServerURL(host: "127.0.0.1", port: 4223)),
      ("nats://example.org", NATSServerURL(host: "example.org", port: 4222)),
      ("NATS://example.org:1/", NATSServerURL(host: "example.org", port: 1)),
      ("nats://[::1]:5000", NATSServerURL(host: "::1", port: 5000)),
      ("nats://[fe80::1]", NATSServerURL(host: "fe80::1", port: 4222)),
      (
        "nats://alice:s%40cret@h:2",
        NATSServerURL(host: "h", port: 2, credentials: .user(name: "alice", password: "s@cret"))
      ),
      (
        "nats://alice:@h", NATSServerURL(host: "h", credentials: .user(name: "alice", password: ""))
      ),
      ("nats://tok3n@[::1]:9", NATSServerURL(host: "::1", port: 9, credentials: .token("tok3n"))),
      (
        "tls://nats.example:4443",
        NATSServerURL(host: "nats.example", port: 4443, requiresTLS: true)
      ),
      ("TLS://[::1]", NATSServerURL(host: "::1", requiresTLS: true)),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(try NATSServerURL(parsing: text), expected, text)
    }
  }

  func testConnectURLs() throws {
    XCTAssertEqual(
      try NATSServerURL(connectURL: "10.0.0.2:4222"), NATSServerURL(host: "10.0.0.2", port: 4222))
    XCTAssertEqual(
      try NATSServerURL(connectURL: "[::1]:14222"), NATSServerURL(host: "::1", port: 14222))
    XCTAssertEqual(try NATSServerURL(connectURL: "node3"), NATSServerURL(host: "node3", port: 4222))
    XCTAssertThrowsError(try NATSServerURL(connectURL: "::1:4222"))
  }

  func testErrorsSayWhatIsWrong() {
    let cases: [(String, NATSURLError)] = [
      ("127.0.0.1:4222", .missingScheme("127.0.0.1:4222")),
      ("https://h:1", .unsupportedScheme("https")),
      ("nats://h:1/path", .unexpectedPath("nats://h:1/path")),
      ("nats://@h", .emptyUser("nats://@h")),
      ("nats://", .badHost("nats://")),
      ("nats://[::1", .badHost("nats://[::1")),
      ("nats://::1:4222", .badHost("nats://::1:4222")),
      ("nats://h:0", .badPort("nats://h:0")),
      ("nats://h:70000", .badPort("nats://h:70000")),
      ("nats://h:x", .badPort("nats://h:x")),
      ("nats://a%zz:b@h", .badEscape("a%zz")),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try NATSServerURL(parsing: text), text) {
        XCTAssertEqual($0 as? NATSURLError, expected, text)
        XCTAssertFalse(String(describing: $0).isEmpty)
      }
    }
  }

  func testDescriptionHidesCredentials() throws {
    let url = try NATSServerURL(parsing: "nats://alice:secret@[::1]:4")
    XCTAssertEqual(url.description, "nats://[::1]:4")
    XCTAssertEqual(try NATSServerURL(parsing: "nats://t@h").description, "nats://h:4222")
    XCTAssertEqual(try NATSServerURL(parsing: "tls://t@h:1").description, "tls://h:1")
  }
}
