import NATS

/// A pattern's retained values for a new subscriber, from the stream's leader when it can.
extension RetainedReader {
  /// Patterns matching at most this many retained topics are read from the stream's leader,
  /// one get per topic; more, through one replay.
  static let leaderReadTopics = 256

  /// Reads the retained values of the gate's pattern and opens the gate with them, in the
  /// order JetStream stored them. Loop only.
  ///
  /// The leader says which topics have one (a stream info with the subjects filter), then
  /// answers one get per topic: a replay's consumer may sit on a replica that has not stored
  /// the newest value yet and would give the one before, after JetStream acknowledged the
  /// new one to its publisher. Past ``leaderReadTopics`` topics, or when a call fails, a
  /// replay reads them all through one consumer instead.
  func readPattern(for gate: RetainedGate) {
    link.streamStatus(link.subjects.stream, subjectsFilter: link.subjects.retained(gate.name)) {
      [self] status in
      guard let status, status.subjectCounts.count <= Self.leaderReadTopics else {
        return replay(for: gate)
      }
      readEach(Array(status.subjectCounts.keys), for: gate)
    }
  }

  /// Gets each of `subjects`' last value from the leader, then opens the gate with them all;
  /// when any call failed, a replay reads them instead, once every call has answered.
  private func readEach(_ subjects: [String], for gate: RetainedGate) {
    guard !subjects.isEmpty else { return gate.open(with: []) }
    var values: [ClusterRetainedValue] = []
    var waiting = subjects.count
    var failed = false
    let answered = { [self] (stored: JetStreamStoredMessage??) in
      waiting -= 1
      switch stored {
      case .none: failed = true
      case .some(let message): if let value = message.flatMap(value) { values.append(value) }
      }
      guard waiting == 0 else { return }
      if failed { return replay(for: gate) }
      gate.open(with: values.sorted { $0.sequence < $1.sequence })
    }
    for subject in subjects {
      let call = JetStreamAPI.lastMessageFromLeader(stream: link.subjects.stream, subject: subject)
      do throws(NATSCommandError) {
        try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
          result in
          answered(try? JetStreamAPI.decodeMessageGet(result))
        }
      } catch {
        answered(.none)
      }
    }
  }

  /// Reads the pattern's retained values through one replay, which any replica may answer.
  private func replay(for gate: RetainedGate) {
    link.replays.start(filter: link.subjects.retained(gate.name), headersOnly: false) {
      [self] stored in
      gate.open(with: stored.compactMap(value))
    }
  }
}
