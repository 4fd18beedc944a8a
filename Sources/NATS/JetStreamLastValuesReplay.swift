/// Reads the last stored value of every subject that matches a pattern, without I/O.
///
/// 2.9.10 has no multi-subject get, so an ephemeral push consumer with `last_per_subject`
/// delivers them (see the notes). Its deliveries may arrive before the reply that creates it,
/// and it goes on delivering new values afterwards. The reply's `num_pending` is the number
/// of values stored at creation, and they are its first deliveries, so the replay keeps the
/// deliveries whose consumer sequence is at most that number and ends when it has them all.
/// A consumer on a replica that lags the stream's leader counts fewer than the leader
/// stored; with ``storedAtLeast``, what the leader said it holds, the replay waits for that
/// many, which the consumer delivers as its replica catches up.
/// The caller subscribes to ``deliverSubject`` first, sends ``createRequest``, feeds the
/// reply and the deliveries, and once ``isFinished`` unsubscribes and sends
/// ``deleteRequest``.
public struct JetStreamLastValuesReplay: Sendable {
  /// The stream holding the values.
  public let stream: String
  /// The pattern, such as `obs-retained.room.*`.
  public let filter: String
  /// Where the consumer delivers; unique to this replay.
  public let deliverSubject: String
  /// Whether the values come without their payloads (the subjects are what is wanted).
  public let headersOnly: Bool
  /// With a sequence, every value from it on instead of the last of each subject.
  public let startSequence: UInt64?
  /// How many values the replay waits for at least, whatever the consumer counts at creation.
  public let storedAtLeast: Int
  /// The values delivered so far, in the stream's order, one per subject.
  public var values: [JetStreamStoredMessage] { deliveries.map(\.message) }
  /// The consumer's name, once the create reply came.
  public private(set) var consumerName: String?
  private var deliveries: [(consumerSequence: UInt64, message: JetStreamStoredMessage)] = []
  private var pendingAtCreation: Int?

  /// A replay of `filter`'s last values from `stream`, delivered to `deliverSubject`; with
  /// `headersOnly` their payloads are left out. With `startSequence`, every value stored
  /// from that sequence on is replayed instead (for a history, which keeps several per
  /// subject), with their payloads. `storedAtLeast` is how many values the stream's leader
  /// said match `filter`.
  public init(
    stream: String, filter: String, deliverSubject: String, headersOnly: Bool = false,
    startSequence: UInt64? = nil, storedAtLeast: Int = 0
  ) {
    self.stream = stream
    self.filter = filter
    self.deliverSubject = deliverSubject
    self.headersOnly = headersOnly && startSequence == nil
    self.startSequence = startSequence
    self.storedAtLeast = storedAtLeast
  }

  /// The request that creates the consumer.
  public var createRequest: JetStreamRequest {
    if let startSequence {
      return JetStreamAPI.createSequenceConsumer(
        stream: stream, filter: filter, deliverSubject: deliverSubject,
        startSequence: startSequence)
    }
    return JetStreamAPI.createLastPerSubjectConsumer(
      stream: stream, filter: filter, deliverSubject: deliverSubject, headersOnly: headersOnly)
  }

  /// The request that deletes the consumer, once its name is known.
  public var deleteRequest: JetStreamRequest? {
    consumerName.map { JetStreamAPI.deleteConsumer(stream: stream, name: $0) }
  }

  /// Whether every value stored when the consumer was created has been delivered.
  public var isFinished: Bool {
    guard let pendingAtCreation else { return false }
    return deliveries.count >= pendingAtCreation
  }

  /// Takes the reply to ``createRequest``; a failure ends the replay with that error.
  public mutating func consumerCreated(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError)
  {
    let info = try JetStreamAPI.decodeConsumerInfo(reply)
    consumerName = info.name
    let pending = max(info.pendingCount, storedAtLeast)
    pendingAtCreation = pending
    // Deliveries that came before the reply and are already new values are not replayed.
    deliveries.removeAll { $0.consumerSequence > UInt64(pending) }
  }

  /// Takes a message delivered on ``deliverSubject``; returns whether it was part of the
  /// replay (those after it are new values, which the live subscription carries).
  @discardableResult
  public mutating func delivered(_ message: NATSMessage) -> Bool {
    guard message.headers?.status == nil,
      let metadata = message.replyTo.flatMap(JetStreamDeliveryMetadata.init(replySubject:))
    else { return false }
    if let pendingAtCreation, metadata.consumerSequence > UInt64(pendingAtCreation) {
      return false
    }
    deliveries.append(
      (
        metadata.consumerSequence,
        JetStreamStoredMessage(
          subject: message.subject, sequence: metadata.streamSequence, payload: message.payload)
      ))
    return true
  }
}
