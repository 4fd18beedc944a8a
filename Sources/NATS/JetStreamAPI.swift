#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JetStream API calls the cluster makes, as requests and reply decoders.
///
/// Each call is sent with ``NATSClientSession/request(subject:headers:payload:timeout:now:)``
/// and its `.reply` event given to the matching decoder, which turns the NATS outcome and
/// the JSON into a value or a ``JetStreamError``.
public enum JetStreamAPI {
  /// Creates a stream; one with the same configuration already there is success, one with
  /// another configuration fails with ``JetStreamAPIError/streamNameInUse``, after which
  /// ``updateStream(_:)`` applies the new one.
  public static func createStream(_ config: JetStreamStreamConfig) -> JetStreamRequest {
    JetStreamRequest(subject: "$JS.API.STREAM.CREATE.\(config.name)", body: json(config))
  }

  /// Replaces a stream's configuration.
  public static func updateStream(_ config: JetStreamStreamConfig) -> JetStreamRequest {
    JetStreamRequest(subject: "$JS.API.STREAM.UPDATE.\(config.name)", body: json(config))
  }

  /// The configuration the server holds after a create or update.
  public static func decodeStreamInfo(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamStreamConfig
  {
    try decode(StreamInfo.self, reply).config
  }

  /// A stream's configuration, state and cluster placement.
  public static func streamInfo(name: String) -> JetStreamRequest {
    JetStreamRequest(subject: "$JS.API.STREAM.INFO.\(name)", body: [])
  }

  /// What a stream info call says: for `stats`, and to know which server leads the stream.
  public static func decodeStreamStatus(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamStreamStatus
  {
    try decode(JetStreamStreamStatus.self, reply)
  }

  /// The last message stored for `subject`, read from any replica.
  public static func directGetLast(stream: String, subject: String) -> JetStreamRequest {
    JetStreamRequest(subject: "$JS.API.DIRECT.GET.\(stream).\(subject)", body: [])
  }

  /// The message of a direct get, or `nil` when the subject has none (status 404).
  public static func decodeDirectGet(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamStoredMessage?
  {
    let message = try success(reply)
    guard let headers = message.headers else {
      // Without headers the body is an API error object.
      _ = try decode(Empty.self, reply)
      throw .malformedReply("direct get answered without headers")
    }
    if let status = headers.status {
      if status == 404 { return nil }
      throw .unexpectedStatus(status, headers.statusDescription)
    }
    guard let subject = headers["Nats-Subject"],
      let sequence = headers["Nats-Sequence"].flatMap({ UInt64($0) })
    else { throw .malformedReply("direct get without Nats-Subject and Nats-Sequence") }
    return JetStreamStoredMessage(subject: subject, sequence: sequence, payload: message.payload)
  }

  /// An ephemeral push consumer that delivers the last message of every subject matching
  /// `filter` to `deliverSubject`, without acknowledgements, then the new ones; with
  /// `headersOnly`, without their payloads, for a caller that needs the subjects only.
  ///
  /// The server removes it `inactiveThreshold` after its deliver subject loses interest, so
  /// a node that dies does not leave it behind.
  public static func createLastPerSubjectConsumer(
    stream: String, filter: String, deliverSubject: String, headersOnly: Bool = false,
    inactiveThreshold: Duration = .seconds(10)
  ) -> JetStreamRequest {
    let config = ConsumerConfig(
      deliverPolicy: "last_per_subject", filterSubject: filter, ackPolicy: "none",
      headersOnly: headersOnly ? true : nil,
      deliverSubject: deliverSubject, memoryStorage: true,
      inactiveThreshold: nanoseconds(inactiveThreshold))
    let body = ConsumerCreate(streamName: stream, config: config)
    return JetStreamRequest(subject: "$JS.API.CONSUMER.CREATE.\(stream)", body: json(body))
  }

  /// The consumer's name and how many messages it has to deliver.
  public static func decodeConsumerInfo(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamConsumerInfo
  {
    try decode(JetStreamConsumerInfo.self, reply)
  }

  /// Deletes a consumer.
  public static func deleteConsumer(stream: String, name: String) -> JetStreamRequest {
    JetStreamRequest(subject: "$JS.API.CONSUMER.DELETE.\(stream).\(name)", body: [])
  }

  /// Whether the consumer was deleted.
  public static func decodeDelete(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> Bool
  {
    try decode(Success.self, reply).success
  }

  /// The acknowledgement of a publish sent as a request to a stream's subject.
  public static func decodePublishAck(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamPublishAck
  {
    try decode(JetStreamPublishAck.self, reply)
  }

  /// `duration` in whole nanoseconds, as JetStream writes durations.
  public static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }

  private static func success(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> NATSMessage
  {
    switch reply {
    case .success(let message): return message
    case .failure(let error): throw .request(error)
    }
  }

  /// Decodes a JSON reply, turning an `error` object into ``JetStreamError/api(_:)``.
  static func decode<Reply: Decodable>(
    _ type: Reply.Type, _ reply: Result<NATSMessage, NATSRequestError>
  ) throws(JetStreamError) -> Reply {
    let message = try success(reply)
    if let status = message.status, message.payload.isEmpty {
      throw .unexpectedStatus(status, message.headers?.statusDescription ?? "")
    }
    let data = Data(message.payload)
    let decoder = JSONDecoder()
    if let failure = try? decoder.decode(ErrorReply.self, from: data) {
      throw .api(failure.error)
    }
    do {
      return try decoder.decode(Reply.self, from: data)
    } catch {
      throw .malformedReply(
        "\(error): \(String(decoding: message.payload.prefix(200), as: UTF8.self))")
    }
  }

  static func json(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Structs of strings, numbers and booleans always encode.
    return Array((try? encoder.encode(value)) ?? Data())
  }
}

private struct ErrorReply: Decodable {
  var error: JetStreamAPIError
}

private struct StreamInfo: Decodable {
  var config: JetStreamStreamConfig
}

private struct Success: Decodable {
  var success: Bool
}

private struct Empty: Decodable {}

struct ConsumerCreate: Encodable {
  var streamName: String
  var config: ConsumerConfig

  enum CodingKeys: String, CodingKey {
    case streamName = "stream_name"
    case config
  }
}

struct ConsumerConfig: Encodable {
  var deliverPolicy: String
  var filterSubject: String
  var ackPolicy: String
  /// `true` to deliver the headers without the payload; left out otherwise.
  var headersOnly: Bool?
  var deliverSubject: String
  var memoryStorage: Bool
  var inactiveThreshold: Int64
  /// The stream sequence to start at, with the policy `by_start_sequence`.
  var startSequence: UInt64?
  /// Nanoseconds between the status messages an idle consumer sends, when set.
  var idleHeartbeat: Int64?

  enum CodingKeys: String, CodingKey {
    case deliverPolicy = "deliver_policy"
    case filterSubject = "filter_subject"
    case ackPolicy = "ack_policy"
    case headersOnly = "headers_only"
    case deliverSubject = "deliver_subject"
    case memoryStorage = "mem_storage"
    case inactiveThreshold = "inactive_threshold"
    case startSequence = "opt_start_seq"
    case idleHeartbeat = "idle_heartbeat"
  }
}
