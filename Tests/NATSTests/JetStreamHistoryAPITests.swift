import Foundation
import XCTest

@testable import NATS

/// The JetStream requests of topic history, and the stream state they read, from fixed bytes.
final class JetStreamHistoryAPITests: XCTestCase {
  private func object(_ request: JetStreamRequest) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
  }

  func testHistoryStreamAndConsumerBodies() throws {
    var config = JetStreamStreamConfig(
      name: "OBS_HISTORY", subjects: ["obs.>"], maxMessagesPerSubject: 100)
    config.maxAge = JetStreamAPI.nanoseconds(.seconds(60))
    config.maxBytes = 1 << 20
    let stream = try object(JetStreamAPI.createStream(config))
    XCTAssertEqual(stream["max_msgs_per_subject"] as? Int, 100)
    XCTAssertEqual(stream["max_age"] as? Int, 60_000_000_000)
    XCTAssertEqual(stream["max_bytes"] as? Int, 1 << 20)
    // The retained stream's body stays as it was: no limits it does not set.
    let retained = try object(
      JetStreamAPI.createStream(JetStreamStreamConfig(name: "OBS", subjects: ["obs-retained.>"])))
    XCTAssertNil(retained["max_age"])
    XCTAssertNil(retained["max_bytes"])

    let consumer = try object(
      JetStreamAPI.createSequenceConsumer(
        stream: "OBS_HISTORY", filter: "obs.room.*", deliverSubject: "_INBOX.x-h.1",
        startSequence: 42))
    let settings = try XCTUnwrap(consumer["config"] as? [String: Any])
    XCTAssertEqual(settings["deliver_policy"] as? String, "by_start_sequence")
    XCTAssertEqual(settings["opt_start_seq"] as? Int, 42)
    XCTAssertEqual(settings["filter_subject"] as? String, "obs.room.*")
    XCTAssertEqual(settings["ack_policy"] as? String, "none")
    XCTAssertEqual(settings["idle_heartbeat"] as? Int, 1_000_000_000)

    let info = JetStreamAPI.streamInfo(name: "OBS_HISTORY", subjectsFilter: "obs.room.*")
    XCTAssertEqual(info.subject, "$JS.API.STREAM.INFO.OBS_HISTORY")
    XCTAssertEqual(try object(info)["subjects_filter"] as? String, "obs.room.*")
    let next = JetStreamAPI.nextMessageFromLeader(
      stream: "OBS_HISTORY", subject: "obs.room.1", from: 7)
    XCTAssertEqual(next.subject, "$JS.API.STREAM.MSG.GET.OBS_HISTORY")
    XCTAssertEqual(try object(next).count, 2)
    XCTAssertEqual(try object(next)["seq"] as? Int, 7)
    XCTAssertEqual(try object(next)["next_by_subj"] as? String, "obs.room.1")
  }

  func testStreamStatusReadsCreationSequencesAndSubjectCounts() throws {
    let json = #"""
      {"type":"io.nats.jetstream.api.v1.stream_info_response",
       "config":{"name":"OBS_HISTORY","subjects":["obs.>"],"max_msgs_per_subject":5},
       "created":"2026-11-26T08:00:00.123456789Z",
       "state":{"messages":7,"first_seq":3,"last_seq":12,"subjects":{"obs.a":5,"obs.b":2}}}
      """#
    let status = try JetStreamAPI.decodeStreamStatus(
      .success(NATSMessage(subject: "_INBOX.x.1", sid: 1, payload: Array(json.utf8)[...])))
    XCTAssertEqual(status.created, "2026-11-26T08:00:00.123456789Z")
    XCTAssertEqual(status.firstSequence, 3)
    XCTAssertEqual(status.lastSequence, 12)
    XCTAssertEqual(status.subjectCounts, ["obs.a": 5, "obs.b": 2])
  }
}
