import NATS
import ObservablePOSIX
import ObservableStreams

/// One subscription with positions on a clustered server: an ephemeral JetStream consumer of
/// the history stream, filtered to its name or pattern, that delivers every value from a
/// stream sequence on, old and live alike. Loop only.
///
/// A consumer that stops (a lost message, a NATS server or the consumer's host gone, a new
/// connection) is replaced by one that starts after the last sequence delivered, through a
/// deliver subject of its own, so values come once each and in stream order whatever
/// happens in between.
final class PositionedFeed {
  /// The name or pattern subscribed to.
  let name: String
  let isPattern: Bool
  /// Where the lines go.
  let observer: StreamObserver
  /// The epoch of the stream the sequences belong to.
  var epoch: UInt32
  /// The stream sequence of the last value received (or the one before the first wanted).
  var lastSequence: UInt64
  /// The stream sequence of the last value handed to the observer (or the one before the
  /// first wanted): where the values held back start.
  var lastSent: UInt64
  /// Values received while a check for lost values runs, in order, held back so that a gap
  /// notice can come before them; `suspect` marks one that may follow a loss.
  var held: [(line: [UInt8], sequence: UInt64, suspect: Bool)] = []
  /// Whether a check for lost values runs.
  var isChecking = false
  /// The sid of the current consumer's deliver subject, 0 before there is one.
  var sid: UInt64 = 0
  /// The current consumer's name, once JetStream made it.
  var consumerName: String?
  /// The consumer sequence the next delivery must have; another means one was lost.
  var nextConsumerSequence: UInt64 = 1
  /// When the consumer last sent anything, a heartbeat included.
  var lastHeard = ContinuousClock.now
  /// Set when the subscription ends, so that a reply coming later does nothing.
  var ended = false

  init(name: String, isPattern: Bool, observer: StreamObserver, epoch: UInt32, after: UInt64) {
    self.name = name
    self.isPattern = isPattern
    self.observer = observer
    self.epoch = epoch
    lastSequence = after
    lastSent = after
  }

  /// What a message on the deliver subject means for the feed.
  enum Delivery {
    /// A heartbeat or another status: the consumer is alive.
    case alive
    /// The next value, stored as `sequence`, with `pending` more of the filter held after it.
    case value(sequence: UInt64, pending: UInt64)
    /// A value came out of order, or was lost: the consumer must be replaced.
    case gap
    /// A value already delivered.
    case duplicate
  }

  /// Sorts a message of the current consumer, and counts it.
  func classify(_ message: NATSMessage) -> Delivery {
    lastHeard = .now
    guard message.headers?.status == nil,
      let metadata = message.replyTo.flatMap(JetStreamDeliveryMetadata.init(replySubject:))
    else { return .alive }
    guard metadata.streamSequence > lastSequence else { return .duplicate }
    guard metadata.consumerSequence == nextConsumerSequence else { return .gap }
    nextConsumerSequence += 1
    lastSequence = metadata.streamSequence
    return .value(sequence: metadata.streamSequence, pending: metadata.pending)
  }
}
