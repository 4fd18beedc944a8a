import Foundation
import XCTest

@testable import NATS

/// The JetStream request bodies and the decoding of every kind of reply, from fixed bytes.
final class JetStreamAPITests: XCTestCase {
  private func reply(_ json: String, headers: NATSHeaders? = nil) -> Result<
    NATSMessage, NATSRequestError
  > {
    .success(
      NATSMessage(subject: "_INBOX.x.1", sid: 1, headers: headers, payload: Array(json.utf8)[...]))
  }

  private func object(_ request: JetStreamRequest) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
  }

  func testStreamCreateBody() throws {
    let request = JetStreamAPI.createStream(
      JetStreamStreamConfig(name: "OBS", subjects: ["obs-retained.>"], replicas: 3))
    XCTAssertEqual(request.subject, "$JS.API.STREAM.CREATE.OBS")
    let body = try object(request)
    XCTAssertEqual(body["name"] as? String, "OBS")
    XCTAssertEqual(body["subjects"] as? [String], ["obs-retained.>"])
    XCTAssertEqual(body["max_msgs_per_subject"] as? Int, 1)
    XCTAssertEqual(body["num_replicas"] as? Int, 3)
    XCTAssertEqual(body["allow_direct"] as? Bool, true)
    XCTAssertEqual(
      JetStreamAPI.updateStream(JetStreamStreamConfig(name: "OBS", subjects: [])).subject,
      "$JS.API.STREAM.UPDATE.OBS")
  }

  func testConsumerBody() throws {
    let request = JetStreamAPI.createLastPerSubjectConsumer(
      stream: "OBS", filter: "obs-retained.room.*", deliverSubject: "_INBOX.x.c1",
      inactiveThreshold: .milliseconds(1500))
    XCTAssertEqual(request.subject, "$JS.API.CONSUMER.CREATE.OBS")
    let body = try object(request)
    XCTAssertEqual(body["stream_name"] as? String, "OBS")
    let config = try XCTUnwrap(body["config"] as? [String: Any])
    XCTAssertEqual(config["deliver_policy"] as? String, "last_per_subject")
    XCTAssertEqual(config["filter_subject"] as? String, "obs-retained.room.*")
    XCTAssertEqual(config["ack_policy"] as? String, "none")
    XCTAssertEqual(config["deliver_subject"] as? String, "_INBOX.x.c1")
    XCTAssertEqual(config["mem_storage"] as? Bool, true)
    XCTAssertEqual(config["inactive_threshold"] as? Int, 1_500_000_000)
    XCTAssertEqual(
      JetStreamAPI.deleteConsumer(stream: "OBS", name: "abc").subject,
      "$JS.API.CONSUMER.DELETE.OBS.abc")
    XCTAssertEqual(
      JetStreamAPI.directGetLast(stream: "OBS", subject: "obs-retained.a").subject,
      "$JS.API.DIRECT.GET.OBS.obs-retained.a")
  }

  func testErrorObjectsBecomeTypedErrors() {
    let json =
      #"{"type":"io.nats.jetstream.api.v1.stream_create_response","error":{"code":400,"err_code":10058,"description":"stream name already in use"}}"#
    XCTAssertThrowsError(try JetStreamAPI.decodeStreamInfo(reply(json))) {
      XCTAssertEqual(
        $0 as? JetStreamError,
        .api(JetStreamAPIError(code: 400, errorCode: 10058, text: "stream name already in use")))
      XCTAssertEqual(($0 as? JetStreamError)?.isTemporary, false)
    }
    XCTAssertThrowsError(
      try JetStreamAPI.decodePublishAck(reply(#"{"error":{"code":503,"description":"no leader"}}"#))
    ) {
      XCTAssertEqual(
        $0 as? JetStreamError, .api(JetStreamAPIError(code: 503, errorCode: 0, text: "no leader")))
      XCTAssertEqual(($0 as? JetStreamError)?.isTemporary, true)
    }
    XCTAssertThrowsError(try JetStreamAPI.decodePublishAck(.failure(.noResponders))) {
      XCTAssertEqual($0 as? JetStreamError, .request(.noResponders))
    }
    XCTAssertThrowsError(try JetStreamAPI.decodePublishAck(reply("not json"))) {
      guard case .malformedReply = $0 as? JetStreamError else { return XCTFail("\($0)") }
    }
    XCTAssertThrowsError(
      try JetStreamAPI.decodeConsumerInfo(
        reply("", headers: NATSHeaders(status: 408, statusDescription: "Request Timeout")))
    ) {
      XCTAssertEqual($0 as? JetStreamError, .unexpectedStatus(408, "Request Timeout"))
    }
  }

  func testSuccessfulReplies() throws {
    XCTAssertEqual(
      try JetStreamAPI.decodePublishAck(reply(#"{"stream":"OBS","seq":17,"duplicate":false}"#)),
      JetStreamPublishAck(stream: "OBS", sequence: 17))
    XCTAssertEqual(
      try JetStreamAPI.decodeConsumerInfo(
        reply(#"{"stream_name":"OBS","name":"Xy1","num_pending":3,"config":{}}"#)),
      JetStreamConsumerInfo(name: "Xy1", pendingCount: 3))
    XCTAssertEqual(try JetStreamAPI.decodeDelete(reply(#"{"success":true}"#)), true)
    let info = try JetStreamAPI.decodeStreamInfo(
      reply(
        #"{"config":{"name":"OBS","subjects":["a.>"],"max_msgs_per_subject":1,"num_replicas":3,"allow_direct":true,"storage":"file","retention":"limits"},"state":{}}"#
      ))
    XCTAssertEqual(info, JetStreamStreamConfig(name: "OBS", subjects: ["a.>"], replicas: 3))
  }

  func testDirectGetHitAndMiss() throws {
    let headers = NATSHeaders(fields: [
      .init(name: "Nats-Stream", value: "OBS"), .init(name: "Nats-Subject", value: "a.b"),
      .init(name: "Nats-Sequence", value: "9"),
    ])
    XCTAssertEqual(
      try JetStreamAPI.decodeDirectGet(reply("42", headers: headers)),
      JetStreamStoredMessage(subject: "a.b", sequence: 9, payload: Array("42".utf8)[...]))
    XCTAssertNil(
      try JetStreamAPI.decodeDirectGet(
        reply("", headers: NATSHeaders(status: 404, statusDescription: "Message Not Found"))))
    XCTAssertThrowsError(
      try JetStreamAPI.decodeDirectGet(reply("", headers: NATSHeaders(status: 408))))
    XCTAssertThrowsError(try JetStreamAPI.decodeDirectGet(reply("x", headers: NATSHeaders())))
  }

  /// The leader's get: its request, a hit (the body in base64), an empty body, a miss, and
  /// another error.
  func testMessageGetFromTheLeader() throws {
    let request = JetStreamAPI.lastMessageFromLeader(stream: "OBS", subject: "obs-retained.a")
    XCTAssertEqual(request.subject, "$JS.API.STREAM.MSG.GET.OBS")
    XCTAssertEqual(try object(request) as? [String: String], ["last_by_subj": "obs-retained.a"])
    let hit = #"{"message":{"subject":"a.b","seq":9,"data":"NDI=","time":"2026-11-26T00:00:00Z"}}"#
    XCTAssertEqual(
      try JetStreamAPI.decodeMessageGet(reply(hit)),
      JetStreamStoredMessage(subject: "a.b", sequence: 9, payload: Array("42".utf8)[...]))
    XCTAssertEqual(
      try JetStreamAPI.decodeMessageGet(reply(#"{"message":{"subject":"a.b","seq":3}}"#))?.payload,
      [])
    let miss = #"{"error":{"code":404,"err_code":10037,"description":"no message found"}}"#
    XCTAssertNil(try JetStreamAPI.decodeMessageGet(reply(miss)))
    let noLeader =
      #"{"error":{"code":503,"err_code":10008,"description":"JetStream not in clustered mode"}}"#
    XCTAssertThrowsError(try JetStreamAPI.decodeMessageGet(reply(noLeader)))
    XCTAssertThrowsError(
      try JetStreamAPI.decodeMessageGet(reply(#"{"message":{"subject":"a","seq":1,"data":"!"}}"#)))
  }

  func testDeliveryMetadataInBothForms() {
    XCTAssertEqual(
      JetStreamDeliveryMetadata(replySubject: "$JS.ACK.OBS.c1.1.42.3.1700000000000000000.2"),
      JetStreamDeliveryMetadata(stream: "OBS", streamSequence: 42, consumerSequence: 3, pending: 2))
    XCTAssertEqual(
      JetStreamDeliveryMetadata(
        replySubject: "$JS.ACK.dom.ACCHASH.OBS.c1.1.42.3.1700000000000000000.2.rnd"),
      JetStreamDeliveryMetadata(stream: "OBS", streamSequence: 42, consumerSequence: 3, pending: 2))
    XCTAssertNil(JetStreamDeliveryMetadata(replySubject: "_INBOX.x.1"))
    XCTAssertNil(JetStreamDeliveryMetadata(replySubject: "$JS.ACK.OBS.c1.1.x.3.1.2"))
  }
}
