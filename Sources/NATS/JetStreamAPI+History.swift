/// The JetStream calls of topic history: a stream that keeps several messages per subject,
/// read from a sequence on with a consumer, and asked how far back it reaches.
extension JetStreamAPI {
  /// A stream's configuration and state, with the number of messages it holds for each
  /// subject `subjectsFilter` matches (a subject or a wildcard).
  public static func streamInfo(name: String, subjectsFilter: String) -> JetStreamRequest {
    JetStreamRequest(
      subject: "$JS.API.STREAM.INFO.\(name)",
      body: json(SubjectsFilter(subjectsFilter: subjectsFilter)))
  }

  /// An ephemeral push consumer without acknowledgements that delivers every message of
  /// `filter` from stream sequence `startSequence` on (only the messages stored from now on
  /// when `nil`) to `deliverSubject`, and a heartbeat every `idleHeartbeat` while it has
  /// nothing to deliver, so that a consumer that is gone shows.
  ///
  /// The server removes it `inactiveThreshold` after its deliver subject loses interest, so
  /// a node that dies does not leave it behind.
  public static func createSequenceConsumer(
    stream: String, filter: String, deliverSubject: String, startSequence: UInt64?,
    idleHeartbeat: Duration = .seconds(1), inactiveThreshold: Duration = .seconds(10)
  ) -> JetStreamRequest {
    let config = ConsumerConfig(
      deliverPolicy: startSequence == nil ? "new" : "by_start_sequence", filterSubject: filter,
      ackPolicy: "none", headersOnly: nil, deliverSubject: deliverSubject, memoryStorage: true,
      inactiveThreshold: nanoseconds(inactiveThreshold), startSequence: startSequence,
      idleHeartbeat: nanoseconds(idleHeartbeat))
    let body = ConsumerCreate(streamName: stream, config: config)
    return JetStreamRequest(subject: "$JS.API.CONSUMER.CREATE.\(stream)", body: json(body))
  }
}

private struct SubjectsFilter: Encodable {
  var subjectsFilter: String

  enum CodingKeys: String, CodingKey {
    case subjectsFilter = "subjects_filter"
  }
}
