import XCTest

@testable import NATS

/// The end of a pattern's replay, whatever the order of the create reply and the deliveries.
final class JetStreamLastValuesReplayTests: XCTestCase {
  private func replay() -> JetStreamLastValuesReplay {
    JetStreamLastValuesReplay(stream: "OBS", filter: "r.room.*", deliverSubject: "_INBOX.t-c.1")
  }

  private func created(pending: Int) -> Result<NATSMessage, NATSRequestError> {
    let json = #"{"name":"C1","num_pending":\#(pending)}"#
    return .success(NATSMessage(subject: "_INBOX.t.1", sid: 1, payload: Array(json.utf8)[...]))
  }

  /// A delivery of consumer sequence `consumer` for stream sequence `stream`.
  private func delivery(_ subject: String, stream: UInt64, consumer: UInt64, value: String)
    -> NATSMessage
  {
    NATSMessage(
      subject: subject, sid: 2, replyTo: "$JS.ACK.OBS.C1.1.\(stream).\(consumer).1700000000.0",
      payload: Array(value.utf8)[...])
  }

  func testDeliveriesAfterTheReplyEndTheReplayAtNumPending() throws {
    var replay = replay()
    XCTAssertEqual(replay.createRequest.subject, "$JS.API.CONSUMER.CREATE.OBS")
    XCTAssertNil(replay.deleteRequest)
    try replay.consumerCreated(created(pending: 2))
    XCTAssertFalse(replay.isFinished)
    XCTAssertTrue(replay.delivered(delivery("r.room.2", stream: 5, consumer: 1, value: "a")))
    XCTAssertFalse(replay.isFinished)
    XCTAssertTrue(replay.delivered(delivery("r.room.1", stream: 7, consumer: 2, value: "b")))
    XCTAssertTrue(replay.isFinished)
    XCTAssertFalse(replay.delivered(delivery("r.room.1", stream: 9, consumer: 3, value: "new")))
    XCTAssertEqual(
      replay.values,
      [
        JetStreamStoredMessage(subject: "r.room.2", sequence: 5, payload: Array("a".utf8)[...]),
        JetStreamStoredMessage(subject: "r.room.1", sequence: 7, payload: Array("b".utf8)[...]),
      ])
    XCTAssertEqual(replay.deleteRequest?.subject, "$JS.API.CONSUMER.DELETE.OBS.C1")
  }

  func testDeliveriesBeforeTheReplyAreKeptUpToNumPending() throws {
    var replay = replay()
    replay.delivered(delivery("r.room.1", stream: 3, consumer: 1, value: "a"))
    replay.delivered(delivery("r.room.1", stream: 4, consumer: 2, value: "live"))
    XCTAssertFalse(replay.isFinished, "no end is known before the reply")
    try replay.consumerCreated(created(pending: 1))
    XCTAssertTrue(replay.isFinished)
    XCTAssertEqual(replay.values.map(\.sequence), [3])
  }

  /// A consumer on a lagging replica counts fewer values than the leader stored: the replay
  /// waits for what the leader said, and keeps it when the replica catches up.
  func testTheLeadersCountOutweighsALaggingConsumers() throws {
    var replay = JetStreamLastValuesReplay(
      stream: "OBS", filter: "h.room.1", deliverSubject: "_INBOX.t-c.1", startSequence: 1,
      storedAtLeast: 2)
    try replay.consumerCreated(created(pending: 1))
    XCTAssertTrue(replay.delivered(delivery("h.room.1", stream: 5, consumer: 1, value: "a")))
    XCTAssertFalse(replay.isFinished)
    XCTAssertTrue(replay.delivered(delivery("h.room.1", stream: 6, consumer: 2, value: "b")))
    XCTAssertTrue(replay.isFinished)
    XCTAssertEqual(replay.values.map(\.sequence), [5, 6])
  }

  func testNothingPendingIsFinishedAtOnce() throws {
    var replay = replay()
    try replay.consumerCreated(created(pending: 0))
    XCTAssertTrue(replay.isFinished)
    XCTAssertEqual(replay.values, [])
  }

  func testStatusMessagesAndForeignRepliesAreNotValues() throws {
    var replay = replay()
    try replay.consumerCreated(created(pending: 1))
    let heartbeat = NATSMessage(
      subject: "_INBOX.t-c.1", sid: 2,
      headers: NATSHeaders(status: 100, statusDescription: "Idle Heartbeat"))
    XCTAssertFalse(replay.delivered(heartbeat))
    XCTAssertFalse(replay.delivered(NATSMessage(subject: "r.room.1", sid: 2, replyTo: "x.y")))
    XCTAssertFalse(replay.isFinished)
  }

  func testFailedCreateIsATypedError() {
    var replay = replay()
    let json = #"{"error":{"code":404,"err_code":10059,"description":"stream not found"}}"#
    XCTAssertThrowsError(
      try replay.consumerCreated(
        .success(NATSMessage(subject: "_INBOX.t.1", sid: 1, payload: Array(json.utf8)[...])))
    ) {
      XCTAssertEqual(
        $0 as? JetStreamError,
        .api(
          JetStreamAPIError(
            code: 404, errorCode: JetStreamAPIError.streamNotFound, text: "stream not found")))
    }
    XCTAssertFalse(replay.isFinished)
  }
}
