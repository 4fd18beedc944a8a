import ObservableSession

/// How a connection's bytes become request lines, and the lines it sends become bytes.
///
/// Line framing serves TCP and Unix sockets; a WebSocket framing serves browsers. The session
/// sees lines either way. An HTTP connection starts with ``HTTPFraming``, which has no session
/// yet, and swaps itself for a ``WebSocketFraming`` at the upgrade. Used on the connection's
/// loop thread only.
protocol Framing: AnyObject {
  /// Hands each complete request line in `input` to `session` and returns how many bytes it
  /// consumed: all of them, unless a request switched the rest of the input to another
  /// encoding (`compress`) or the connection to another framing, which the caller then
  /// applies to the rest. `session` is nil before a session starts (an HTTP head).
  func decode(_ input: UnsafeRawBufferPointer, to session: Session?) -> Int

  /// The longest request line accepted; lowered until a client authenticates.
  var maxLineBytes: Int { get set }

  /// Whether outgoing lines go on the wire unchanged, so the connection writes them without
  /// ``encode(_:to:)`` copying them.
  var sendsLinesUnchanged: Bool { get }

  /// Appends `lines`, whole `\n`-terminated lines, in this framing's wire form.
  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8])

  /// Whether the `compress` op may switch the connection's byte stream to deflate.
  var allowsStreamCompression: Bool { get }

  /// Called once the connection is registered on its loop; returns whether the session starts
  /// now. A line framing starts it at once; an HTTP framing starts it at the upgrade.
  func attach(to connection: Connection) -> Bool

  /// The bytes that tell the peer the connection ends, queued after everything already
  /// queued; after them the framing sends nothing more. Nothing for lines.
  func farewell(_ reason: Farewell) -> [UInt8]

  /// The connection closed: the framing releases what it holds (timers, counters).
  func connectionClosed()

  /// Where the unit of output (a frame) holding byte `offset` of `output` ends, `output`
  /// starting where a unit starts; `output.count` when `offset` is. Nil when the framing
  /// cannot tell, so that its output cannot be cut after the unit being written.
  func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int?
}

/// Why a connection ends, for framings that tell their peer (a WebSocket close code).
enum Farewell {
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
  func attach(to connection: Connection) -> Bool { true }

  /// Nothing to say.
  func farewell(_ reason: Farewell) -> [UInt8] { [] }

  /// Nothing to release.
  func connectionClosed() {}

  /// Output cannot be cut.
  func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? { nil }
}
