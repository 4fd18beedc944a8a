import Foundation
import XCTest

@testable import NATS

/// Purging one subject, as clearing a clustered retained value does.
final class JetStreamPurgeTests: XCTestCase {
  private func reply(_ json: String) -> Result<NATSMessage, NATSRequestError> {
    .success(NATSMessage(subject: "_INBOX.x.1", sid: 1, payload: Array(json.utf8)[...]))
  }

  func testPurgeBodyNamesTheSubject() throws {
    let request = JetStreamAPI.purge(stream: "OBS", subject: "obs-retained.a.b")
    XCTAssertEqual(request.subject, "$JS.API.STREAM.PURGE.OBS")
    let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String]
    XCTAssertEqual(body, ["filter": "obs-retained.a.b"])
  }

  func testPurgeRepliesAreDecoded() throws {
    XCTAssertEqual(try JetStreamAPI.decodePurge(reply(#"{"success":true,"purged":1}"#)), 1)
    XCTAssertEqual(try JetStreamAPI.decodePurge(reply(#"{"success":true,"purged":0}"#)), 0)
    XCTAssertThrowsError(
      try JetStreamAPI.decodePurge(
        reply(#"{"error":{"code":404,"err_code":10059,"description":"stream not found"}}"#))
    ) { error in
      guard case .api(let api) = error as? JetStreamError else { return XCTFail("\(error)") }
      XCTAssertEqual(api.errorCode, 10059)
    }
    XCTAssertThrowsError(try JetStreamAPI.decodePurge(.failure(.timeout)))
    XCTAssertThrowsError(try JetStreamAPI.decodePurge(reply("nonsense")))
  }
}
