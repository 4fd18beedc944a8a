import Foundation
import XCTest

@testable import NATS

/// The JetStream calls for retained values, against a real `nats-server -js`.
final class JetStreamLiveTests: XCTestCase {
  private let config = JetStreamStreamConfig(name: "OBS", subjects: ["obs-retained.>"])

  private func text(_ payload: ArraySlice<UInt8>) -> String {
    String(decoding: payload, as: UTF8.self)
  }

  /// A connected client with the retained stream created.
  private func clientWithStream() throws -> (NATSServerProcess, NATSTestConnection) {
    let server = try NATSServerProcess.startSingle(self)
    let client = try NATSTestConnection(port: server.port, name: "jetstream")
    let created = try JetStreamAPI.decodeStreamInfo(client.call(JetStreamAPI.createStream(config)))
    XCTAssertEqual(created, config)
    return (server, client)
  }

  /// Stores `value` under `subject` and returns the acknowledgement.
  private func store(_ client: NATSTestConnection, _ subject: String, _ value: String) throws
    -> JetStreamPublishAck
  {
    try JetStreamAPI.decodePublishAck(client.request(subject, payload: Array(value.utf8)))
  }

  func testStreamCreateIsIdempotentAndAnotherConfigNeedsAnUpdate() throws {
    let (_, client) = try clientWithStream()
    XCTAssertEqual(
      try JetStreamAPI.decodeStreamInfo(client.call(JetStreamAPI.createStream(config))), config)
    var changed = config
    changed.subjects = ["obs-retained.>", "other-retained.>"]
    XCTAssertThrowsError(
      try JetStreamAPI.decodeStreamInfo(client.call(JetStreamAPI.createStream(changed)))
    ) {
      guard case .api(let error) = $0 as? JetStreamError else { return XCTFail("\($0)") }
      XCTAssertEqual(error.errorCode, JetStreamAPIError.streamNameInUse)
      XCTAssertEqual(error.code, 400)
    }
    XCTAssertEqual(
      try JetStreamAPI.decodeStreamInfo(client.call(JetStreamAPI.updateStream(changed))), changed)
  }

  func testReplicasBeyondTheClusterAreAClearError() throws {
    let (_, client) = try clientWithStream()
    var replicated = config
    replicated.name = "OBS3"
    replicated.subjects = ["r3.>"]
    replicated.replicas = 3
    XCTAssertThrowsError(
      try JetStreamAPI.decodeStreamInfo(client.call(JetStreamAPI.createStream(replicated)))
    ) {
      guard case .api(let error) = $0 as? JetStreamError else { return XCTFail("\($0)") }
      XCTAssertFalse(error.text.isEmpty)
      XCTAssertFalse(($0 as? JetStreamError)?.isTemporary ?? true)
    }
  }

  func testStoredPublishIsAcknowledgedAndOthersHaveNoResponders() throws {
    let (_, client) = try clientWithStream()
    let first = try store(client, "obs-retained.a", "1")
    let second = try store(client, "obs-retained.b", "2")
    XCTAssertEqual(first.stream, "OBS")
    XCTAssertEqual(second.sequence, first.sequence + 1)
    XCTAssertThrowsError(try store(client, "not-retained.a", "x")) {
      XCTAssertEqual($0 as? JetStreamError, .request(.noResponders))
    }
  }

  func testDirectGetReturnsTheLastValueOrNothing() throws {
    let (_, client) = try clientWithStream()
    _ = try store(client, "obs-retained.room.1", "old")
    let last = try store(client, "obs-retained.room.1", "new")
    let hit = try JetStreamAPI.decodeDirectGet(
      client.call(JetStreamAPI.directGetLast(stream: "OBS", subject: "obs-retained.room.1")))
    XCTAssertEqual(hit?.subject, "obs-retained.room.1")
    XCTAssertEqual(hit?.sequence, last.sequence)
    XCTAssertEqual(hit.map { text($0.payload) }, "new")
    let miss = try JetStreamAPI.decodeDirectGet(
      client.call(JetStreamAPI.directGetLast(stream: "OBS", subject: "obs-retained.room.2")))
    XCTAssertNil(miss)
  }

  /// How far back a subject reaches, asked of the leader: the first message of that subject at
  /// or after a sequence, past other subjects' messages and the subject's own dropped ones.
  func testTheLeadersNextMessageOfASubjectSkipsOthersAndDroppedOnes() throws {
    let (_, client) = try clientWithStream()
    let dropped = try store(client, "obs-retained.a", "old")
    _ = try store(client, "obs-retained.b", "b")
    let kept = try store(client, "obs-retained.a", "new")
    _ = try store(client, "obs-retained.b", "b2")
    func next(_ subject: String, from sequence: UInt64) throws -> JetStreamStoredMessage? {
      try JetStreamAPI.decodeMessageGet(
        client.call(
          JetStreamAPI.nextMessageFromLeader(stream: "OBS", subject: subject, from: sequence)))
    }
    // One value a subject: the first "a" is gone, so "a" now reaches back to the second.
    let found = try next("obs-retained.a", from: dropped.sequence)
    XCTAssertEqual(found?.sequence, kept.sequence)
    XCTAssertEqual(found.map { text($0.payload) }, "new")
    XCTAssertNil(try next("obs-retained.a", from: kept.sequence + 1))
    XCTAssertNil(try next("obs-retained.c", from: 1))
  }

  func testLastPerSubjectConsumerDeliversOneValuePerMatchingSubject() throws {
    let (_, client) = try clientWithStream()
    for (subject, value) in [
      ("obs-retained.room.1", "1a"), ("obs-retained.room.2", "2a"), ("obs-retained.room.1", "1b"),
      ("obs-retained.room.3", "3a"), ("obs-retained.room.3.deep", "no"),
      ("obs-retained.hall", "no"),
    ] {
      _ = try store(client, subject, value)
    }
    let deliver = client.session.inboxPrefix + "-consumer.1"
    let sid = try client.subscribe(deliver)
    let consumer = try JetStreamAPI.decodeConsumerInfo(
      client.call(
        JetStreamAPI.createLastPerSubjectConsumer(
          stream: "OBS", filter: "obs-retained.room.*", deliverSubject: deliver)))
    XCTAssertEqual(consumer.pendingCount, 3)
    try client.run(until: { $0.messages(sid: sid).count == consumer.pendingCount })
    let delivered = client.messages(sid: sid)
    XCTAssertEqual(
      Dictionary(uniqueKeysWithValues: delivered.map { ($0.subject, text($0.payload)) }),
      ["obs-retained.room.1": "1b", "obs-retained.room.2": "2a", "obs-retained.room.3": "3a"])
    let metadata = delivered.compactMap { $0.replyTo.flatMap(JetStreamDeliveryMetadata.init) }
    XCTAssertEqual(metadata.map(\.pending), [2, 1, 0], "the last one says nothing is pending")
    XCTAssertEqual(metadata.map(\.stream), ["OBS", "OBS", "OBS"])

    XCTAssertTrue(
      try JetStreamAPI.decodeDelete(
        client.call(JetStreamAPI.deleteConsumer(stream: "OBS", name: consumer.name))))
    XCTAssertThrowsError(
      try JetStreamAPI.decodeDelete(
        client.call(JetStreamAPI.deleteConsumer(stream: "OBS", name: consumer.name)))
    ) {
      guard case .api(let error) = $0 as? JetStreamError else { return XCTFail("\($0)") }
      XCTAssertEqual(error.errorCode, JetStreamAPIError.consumerNotFound)
    }
  }

  func testConsumerOnAPatternWithNoValuesHasNothingPending() throws {
    let (_, client) = try clientWithStream()
    let consumer = try JetStreamAPI.decodeConsumerInfo(
      client.call(
        JetStreamAPI.createLastPerSubjectConsumer(
          stream: "OBS", filter: "obs-retained.empty.>",
          deliverSubject: client.session.inboxPrefix + "-consumer.2")))
    XCTAssertEqual(consumer.pendingCount, 0)
    XCTAssertFalse(consumer.name.isEmpty)
  }

  func testReplayOfAPatternEndsAtTheStoredValuesAndLeavesNewOnesToLiveDelivery() throws {
    let (_, client) = try clientWithStream()
    for (subject, value) in [
      ("obs-retained.room.1", "1a"), ("obs-retained.room.2", "2a"), ("obs-retained.room.1", "1b"),
      ("obs-retained.hall", "no"),
    ] {
      _ = try store(client, subject, value)
    }
    var replay = JetStreamLastValuesReplay(
      stream: "OBS", filter: "obs-retained.room.*",
      deliverSubject: client.session.inboxPrefix + "-replay.1")
    let sid = try client.subscribe(replay.deliverSubject)
    try replay.consumerCreated(client.call(replay.createRequest))
    var fed = 0
    try client.run(until: { connection in
      let messages = connection.messages(sid: sid)
      for message in messages[fed...] { replay.delivered(message) }
      fed = messages.count
      return replay.isFinished
    })
    XCTAssertEqual(replay.values.map(\.subject), ["obs-retained.room.2", "obs-retained.room.1"])
    XCTAssertEqual(replay.values.map { text($0.payload) }, ["2a", "1b"])
    _ = try store(client, "obs-retained.room.3", "3a")
    try client.run(until: { $0.messages(sid: sid).count == 3 })
    XCTAssertFalse(replay.delivered(client.messages(sid: sid)[2]), "a new value is not replayed")
    client.session.unsubscribe(sid: sid)
    let delete = try XCTUnwrap(replay.deleteRequest)
    XCTAssertTrue(try JetStreamAPI.decodeDelete(client.call(delete)))
  }
}
