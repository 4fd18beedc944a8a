/// The ciphertext between a session's OpenSSL and its socket, which the session's BIO reads
/// and writes (see ``CiphertextBIO``). Loop thread only, as its session.
///
/// Ciphertext the socket read waits in `incoming` until OpenSSL reads it; records OpenSSL
/// seals go straight into the caller's bytes while ``TLSSession/send(_:appendingTo:)`` runs
/// (``destination``), and into `outgoing` otherwise. Neither side zero-fills or copies twice,
/// which is what OpenSSL's memory BIO did: every write grew its buffer with a `memset`, and
/// every read copied the bytes out once more.
final class CiphertextChannel {
  /// A buffer whose capacity grew past this during a burst gives it back when it drains,
  /// so a connection does not keep a burst's memory for the rest of its life. Two full
  /// records fit below it.
  static let keptCapacity = 1 << 15

  /// Ciphertext the socket read that OpenSSL has not read yet: `incoming[incomingRead...]`.
  private var incoming: [UInt8] = []
  /// How much of `incoming` OpenSSL has read.
  private var incomingRead = 0
  /// Whether the socket reached its end: once `incoming` is drained, OpenSSL reads the end of
  /// the stream instead of "retry when more arrives".
  var incomingEnded = false
  /// Records OpenSSL wrote on its own (handshake messages, alerts, session tickets,
  /// close_notify), until ``take(appendingTo:)``.
  private(set) var outgoing: [UInt8] = []
  /// While a ``TLSSession/send(_:appendingTo:)`` runs, the caller's bytes: the records it
  /// seals are appended there directly.
  var destination: UnsafeMutablePointer<[UInt8]>?

  /// Ciphertext fed and not read by OpenSSL yet.
  var unread: Int { incoming.count - incomingRead }

  /// Whether OpenSSL has read everything up to the end of the stream.
  var isAtEnd: Bool { incomingEnded && unread == 0 }

  /// The memory the buffers hold, which the session gives back when it ends.
  var heldBytes: Int { incoming.capacity + outgoing.capacity }

  /// Keeps a copy of `ciphertext` for OpenSSL to read: the caller's buffer (the loop's shared
  /// read buffer) takes the plaintext next.
  func feed(_ ciphertext: UnsafeRawBufferPointer) {
    incoming.append(contentsOf: ciphertext.assumingMemoryBound(to: UInt8.self))
  }

  /// OpenSSL reads up to `count` bytes into `target`: returns how many it got, 0 when nothing
  /// waits.
  func read(into target: UnsafeMutableRawPointer, count: Int) -> Int {
    let taken = min(count, unread)
    guard taken > 0 else { return 0 }
    incoming.withUnsafeBytes { bytes in
      target.copyMemory(from: bytes.baseAddress! + incomingRead, byteCount: taken)
    }
    incomingRead += taken
    if incomingRead == incoming.count {
      incoming.removeAll(keepingCapacity: incoming.capacity <= Self.keptCapacity)
      incomingRead = 0
    }
    return taken
  }

  /// OpenSSL writes `records`: into the caller's bytes during a send, else kept until taken.
  func write(_ records: UnsafeRawBufferPointer) {
    let bytes = records.assumingMemoryBound(to: UInt8.self)
    if let destination {
      destination.pointee.append(contentsOf: bytes)
    } else {
      outgoing.append(contentsOf: bytes)
    }
  }

  /// Appends the records OpenSSL wrote on its own to `ciphertext`; returns how many bytes.
  func take(appendingTo ciphertext: inout [UInt8]) -> Int {
    let count = outgoing.count
    guard count > 0 else { return 0 }
    ciphertext.append(contentsOf: outgoing)
    outgoing.removeAll(keepingCapacity: outgoing.capacity <= Self.keptCapacity)
    return count
  }
}
