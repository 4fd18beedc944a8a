import Foundation
import TestSupport
import XCTest

/// A signed token is checked on the connection's loop thread, synchronously and in
/// microseconds (jwt-kit's algorithm, never its key-collection actor), so a client that sends
/// thousands of `auth`s does not hold up the deliveries of another client on the same loop.
final class SignedTokenFloodTests: XCTestCase {
  func testThousandsOfSignedAuthsDoNotStallOtherClients() async throws {
    // One loop: the flood and the other clients share its thread.
    let server = try AuthorizedServer(extra: ["--threads", "1"])
    let auth = #"{"op":"auth","jwt":"\#(try await MintedToken.make(expiresIn: 600))"}"#
    let flood = try LineClient(port: server.port)
    XCTAssertEqual(try flood.request(auth)["ok"] as? Bool, true)
    let subscriber = try server.client("ann")
    XCTAssertNil(errorCode(try subscriber.request("subscribe room.lobby")))
    let publisher = try server.client(nil)

    let count = 5_000
    let started = ContinuousClock.now
    try flood.sendRaw(Array(String(repeating: auth + "\n", count: count).utf8))
    var slowest = Duration.zero
    for value in 0..<50 {
      let sent = ContinuousClock.now
      XCTAssertEqual(try publisher.request("publish room.lobby \(value)")["ok"] as? Bool, true)
      let delivery = try subscriber.read(until: { $0["stream"] != nil }, timeout: .seconds(10))
      XCTAssertEqual(delivery["value"] as? Int, value)
      slowest = max(slowest, ContinuousClock.now - sent)
    }
    // A round trip takes well under a millisecond here; a loop held by the flood would show
    // the seconds the flood takes. The bound is far above the first, far below the second.
    XCTAssertLessThan(slowest, .seconds(1))

    var answered = 0
    while answered < count {
      let reply = try flood.readJSON(timeout: .seconds(30))
      guard reply["ok"] as? Bool == true else { return XCTFail("\(reply)") }
      answered += 1
    }
    print("\(count) signed auths answered in \(ContinuousClock.now - started)")
  }
}
