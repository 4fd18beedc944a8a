import NATS
import ObservablePOSIX

/// One read of the last stored values of a pattern from JetStream: the consumer replay, what
/// to do with the values, and the deliver subject's sid. Loop only.
package final class ClusterReplay {
  /// The consumer's state: what it delivered, and when it is done.
  var replay: JetStreamLastValuesReplay
  /// Gets the stored messages once, when the replay ends.
  let completion: ([JetStreamStoredMessage]) -> Void
  /// The sid of the deliver subject's subscription.
  var sid: UInt64 = 0
  /// The timer that ends the replay with what came, if the consumer stalls.
  var timer: LoopTimer?

  /// A replay whose values go to `completion`, before its subscription and consumer exist.
  init(
    replay: JetStreamLastValuesReplay,
    completion: @escaping ([JetStreamStoredMessage]) -> Void
  ) {
    self.replay = replay
    self.completion = completion
  }

  /// Takes a message on the deliver subject.
  func delivered(_ message: NATSMessage) {
    replay.delivered(message)
  }

  /// Whether every value stored when the consumer was made has come.
  var isFinished: Bool { replay.isFinished }
}
