/// How a connection's bytes become request lines, and the lines it sends become bytes.
///
/// Line framing serves TCP and Unix sockets; a WebSocket framing serves browsers. The session
/// sees lines either way. An HTTP connection starts with ``HTTPFraming``, which has no session
/// yet, and hands over to a ``WebSocketFraming`` at the upgrade. A framing is a codec: it turns
/// bytes into ``FramingEvent``s and never calls the connection; the connection acts on each
/// event. Used on the connection's loop thread only.
package protocol Framing: AnyObject {
  /// Hands each event found in `input` to `handle` and returns how many bytes it consumed: all
  /// of them, unless `handle` returned `false` because a request switched the rest of the
  /// input to another encoding (`compress`) or the connection to another framing, which the
  /// caller then applies to the rest.
  func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int

  /// The longest request line accepted; lowered until a client authenticates.
  var maxLineBytes: Int { get set }

  /// Whether outgoing lines go on the wire unchanged, so the connection writes them without
  /// ``encode(_:to:)`` copying them.
  var sendsLinesUnchanged: Bool { get }

  /// Whether the outbox holds this framing's wire form already (``outboxEncoding``), so the
  /// connection writes what it takes from there as it is, as it writes unchanged lines.
  var outboxHoldsWireForm: Bool { get }

  /// Appends `lines`, whole `\n`-terminated lines, in this framing's wire form.
  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8])

  /// Whether the `compress` op may switch the connection's byte stream to deflate.
  var allowsStreamCompression: Bool { get }

  /// Called once the connection is registered on its loop; returns whether the session starts
  /// now. A line framing starts it at once; an HTTP framing starts it at the upgrade.
  func attach() -> Bool

  /// How long after ``attach()`` the connection calls ``timerFired()``, and again after each
  /// call that asks for it; nil for no timer. An HTTP head's deadline, a WebSocket ping.
  var timerInterval: Duration? { get }

  /// The framing's timer fired: the event for the connection to act on, if any, and whether
  /// the timer runs again.
  func timerFired() -> (event: FramingEvent?, again: Bool)

  /// The bytes that tell the peer the connection ends, queued after everything already
  /// queued; after them the framing sends nothing more. Nothing for lines.
  func farewell(_ reason: Farewell) -> [UInt8]

  /// The connection closed: the framing releases what it holds (timers, counters).
  func connectionClosed()

  /// Where the unit of output (a frame) holding byte `offset` of `output` ends, `output`
  /// starting where a unit starts; `output.count` when `offset` is. Nil when the framing
  /// cannot tell, so that its output cannot be cut after the unit being written.
  func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int?

  /// Request lines the session handles as soon as it starts, before anything the peer sends:
  /// what a `GET /sse` asked for in its query. Each call after the first returns none.
  func openingRequests() -> [[UInt8]]

  /// How deliveries and replies go into the outbox, when not as lines: the framing's
  /// ``encode(_:to:)`` then only copies what the outbox holds. Nil for lines, and for
  /// WebSocket unless it compresses without context takeover.
  var outboxEncoding: (deliveries: any DeliveryEncoding, reply: ([UInt8]) -> [UInt8])? { get }
}

/// Why a connection ends, for framings that tell their peer (a WebSocket close code).
package enum Farewell {
  /// The peer closed: echo its code (nil: normal closure).
  case reply(UInt16?)
  /// The session ended the connection (a wrong token, an authentication timeout).
  case policyViolation
  /// The server is shutting down.
  case goingAway
  /// The peer broke the framing's rules: the code says which rule.
  case protocolError(UInt16, String)
  /// The peer did not read what was queued for it (`--max-queued-bytes`).
  case slowConsumer
  /// The peer stopped answering: the reason says how it was noticed.
  case deadPeer(String)
}

/// What a line framing needs of the connection's life: nothing.
extension Framing {
  /// The session starts at once.
  package func attach() -> Bool { true }

  /// No timer.
  package var timerInterval: Duration? { nil }

  /// Nothing to do.
  package func timerFired() -> (event: FramingEvent?, again: Bool) { (nil, false) }

  /// Nothing to say.
  package func farewell(_ reason: Farewell) -> [UInt8] { [] }

  /// Nothing to release.
  package func connectionClosed() {}

  /// Output cannot be cut.
  package func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? { nil }

  /// The peer sends its own requests.
  package func openingRequests() -> [[UInt8]] { [] }

  /// The outbox holds lines, which ``encode(_:to:)`` frames unless they go out unchanged.
  package var outboxHoldsWireForm: Bool { false }

  /// Deliveries and replies go into the outbox as lines.
  package var outboxEncoding: (deliveries: any DeliveryEncoding, reply: ([UInt8]) -> [UInt8])? {
    nil
  }
}
