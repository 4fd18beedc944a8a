import IndefiniteObservable
import TestSupport

@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// A stream observer that keeps every line it is handed, from any thread.
final class LineCollector: Sendable {
  init() {
    let lines = LockedValue([[UInt8]]())
    storage = lines
    observer = StreamObserver { line in lines.withLock { $0.append(line) } }
  }

  /// The observer to subscribe with.
  let observer: StreamObserver

  /// Every line so far, in the order they arrived.
  var lines: [[UInt8]] { storage.value }

  /// Every line so far, as text.
  var texts: [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

  /// The line a stream sends for `value`, as the protocol documents it: `{"stream":NAME,"value":V}\n`.
  static func delivery(_ stream: String, _ value: String) -> String {
    #"{"stream":"\#(stream)","value":\#(value)}"# + "\n"
  }

  /// The line a stream sends for `value` through the pattern subscription `sub` (protocol
  /// 1.1): `{"stream":NAME,"sub":PATTERN,"value":V}\n`.
  static func delivery(_ stream: String, _ value: String, sub: String) -> String {
    #"{"stream":"\#(stream)","sub":"\#(sub)","value":\#(value)}"# + "\n"
  }

  private let storage: LockedValue<[[UInt8]]>
}

extension StreamRegistry {
  /// Publishes raw JSON `value` to `name`.
  @discardableResult
  func publish(_ value: String, to name: String, retain: Bool = false) throws(ProtocolError) -> Int
  {
    try Array(value.utf8).withUnsafeBytes { raw in
      Result { () throws(ProtocolError) in try publish(raw, to: name, retain: retain) }
    }.get()
  }

  /// Subscribes `collector` to `name`.
  func subscribe(_ collector: LineCollector, to name: String) throws(ProtocolError) -> Subscription
  {
    try stream(named: name).subscribe(observer: collector.observer)
  }
}
