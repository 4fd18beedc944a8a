/// How a connection's bytes become request lines, and the lines it sends become bytes.
///
/// Line framing serves TCP and Unix sockets; a WebSocket framing serves browsers. The session
/// sees lines either way. Used on the connection's loop thread only.
protocol Framing: AnyObject {
  /// Hands each complete request line in `input` to `session` and returns how many bytes it
  /// consumed: all of them, unless a request switched the rest of the input to another
  /// encoding (`compress`), which the caller then undoes first.
  func decode(_ input: UnsafeRawBufferPointer, to session: Session) -> Int

  /// The longest request line accepted; lowered until a client authenticates.
  var maxLineBytes: Int { get set }

  /// Whether outgoing lines go on the wire unchanged, so the connection writes them without
  /// ``encode(_:to:)`` copying them.
  var sendsLinesUnchanged: Bool { get }

  /// Appends `lines`, whole `\n`-terminated lines, in this framing's wire form.
  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8])

  /// Whether the `compress` op may switch the connection's byte stream to deflate.
  var allowsStreamCompression: Bool { get }
}
