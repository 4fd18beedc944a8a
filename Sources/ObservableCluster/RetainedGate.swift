import Locking
import ObservableStreams
import ObservableWire

/// Stands between a new subscription and its observer while the topic's retained value is
/// fetched from JetStream, so that the observer gets the retained value first and then live
/// values, with no duplicate and no gap.
///
/// The subscription is attached (and the NATS interest sent) before the fetch, so no live
/// value is missed; live values that come before the fetch's answer wait here. When the answer
/// comes, a retained value is delivered only for topics no live value came for meanwhile (that
/// value is newer, or the same), then the waiting values follow. A retained value's live copy
/// carries its stream sequence, so a copy of one already delivered from the fetch is dropped.
package final class RetainedGate: Sendable {
  /// Bytes of live values held while waiting; past it they are dropped and counted, so a
  /// fetch that never answers cannot make a subscription hold unbounded memory.
  static let bufferLimit = 1 << 20

  /// The topic or pattern subscribed to.
  let name: String
  /// Whether `name` is a pattern, whose lines carry `"sub"`.
  let isPattern: Bool
  private let observer: StreamObserver
  private let inbound: @Sendable () -> (topic: String, sequence: UInt64)?
  private let state = Locked(GateState())

  /// A closed gate before `observer`; `inbound` tells which stored value the lines being
  /// delivered now are the live copy of, if any.
  init(
    name: String, isPattern: Bool, observer: StreamObserver,
    inbound: @escaping @Sendable () -> (topic: String, sequence: UInt64)?
  ) {
    self.name = name
    self.isPattern = isPattern
    self.observer = observer
    self.inbound = inbound
  }

  /// The observer to attach in place of the subscriber's own.
  var relay: StreamObserver {
    StreamObserver { [self] lines in receive(lines) }
  }

  /// Whether the retained values have been delivered and live values pass straight through.
  var isOpen: Bool { state.withLock { $0.open } }

  /// Live values dropped because the buffer was full while waiting.
  var droppedWhileWaiting: Int { state.withLock { $0.dropped } }

  private func receive(_ lines: [UInt8]) {
    let copy = inbound()
    state.withLock { state in
      if let copy, let delivered = state.sequences[copy.topic], copy.sequence <= delivered {
        return
      }
      if state.open { return observer.next(lines) }
      guard state.bufferedBytes + lines.count <= Self.bufferLimit else {
        state.dropped += 1
        return
      }
      state.buffer.append(lines)
      state.bufferedBytes += lines.count
      let topic = copy?.topic ?? (isPattern ? ClusterLines.topic(of: lines).map(String.init) : name)
      if let topic { state.liveTopics.insert(topic) }
    }
  }

  /// Delivers `retained` (for topics no live value came for), then what waited, and opens.
  func open(with retained: [ClusterRetainedValue]) {
    state.withLock { state in
      guard !state.open else { return }
      for stored in retained where !state.liveTopics.contains(stored.topic) {
        observer.next(line(for: stored))
        state.sequences[stored.topic] = stored.sequence
      }
      for lines in state.buffer { observer.next(lines) }
      state.buffer = []
      state.bufferedBytes = 0
      state.liveTopics = []
      state.open = true
    }
  }

  private func line(for stored: ClusterRetainedValue) -> [UInt8] {
    var line =
      isPattern
      ? DeliveryEncoder.prefix(stream: stored.topic, sub: name)
      : DeliveryEncoder.prefix(stream: stored.topic)
    line.append(contentsOf: stored.value)
    line.append(contentsOf: "}\n".utf8)
    return line
  }
}

private struct GateState {
  var open = false
  var buffer: [[UInt8]] = []
  var bufferedBytes = 0
  /// Topics a live value came for while waiting.
  var liveTopics: Set<String> = []
  /// The sequence of the retained value delivered from the fetch, by topic.
  var sequences: [String: UInt64] = [:]
  var dropped = 0
}
