import NATS

/// One pattern subscription's read of its retained values from JetStream: the consumer
/// replay, the gate waiting for it, and the deliver subject's sid. Loop only.
final class ClusterReplay {
  /// The consumer's state: what it delivered, and when it is done.
  var replay: JetStreamLastValuesReplay
  /// The subscription waiting for the values.
  let gate: RetainedGate
  /// The sid of the deliver subject's subscription.
  var sid: UInt64 = 0
  /// The timer that ends the replay with what came, if the consumer stalls.
  var timer: LoopTimer?

  /// A replay for `gate`, before its subscription and consumer exist.
  init(replay: JetStreamLastValuesReplay, gate: RetainedGate) {
    self.replay = replay
    self.gate = gate
  }

  /// Takes a message on the deliver subject.
  func delivered(_ message: NATSMessage) {
    replay.delivered(message)
  }

  /// Whether every value stored when the consumer was made has come.
  var isFinished: Bool { replay.isFinished }
}
