/// The ciphertext between a session's OpenSSL and its socket, which the session's BIO reads
/// and writes (see ``CiphertextBIO``). Loop thread only, as its session.
///
/// Ciphertext OpenSSL has to read is in up to two places: `kept`, the channel's own copy, and
/// `lent`, the caller's buffer while ``TLSSession/lending(_:_:)`` runs, read in that order.
/// A lent buffer is read where it is, so a connection's ciphertext is not copied once more
/// before OpenSSL copies it into its record buffer. OpenSSL takes a record the read cut short
/// into that buffer too, so a lending whose reads ran until "needs input" leaves nothing;
/// what is left when one stopped early is copied into `kept`, since the caller reuses its
/// buffer. Records OpenSSL seals go straight
/// into the caller's bytes while ``TLSSession/send(_:appendingTo:)`` runs (``destination``),
/// and into `outgoing` otherwise. Nothing is zero-filled, which OpenSSL's memory BIO did on
/// every write.
final class CiphertextChannel {
  /// A buffer whose capacity grew past this during a burst gives it back when it drains,
  /// so a connection does not keep a burst's memory for the rest of its life. Two full
  /// records fit below it.
  static let keptCapacity = 1 << 15

  /// Ciphertext fed, or left of a lent buffer, that OpenSSL has not read:
  /// `kept[keptRead...]`.
  private var kept: [UInt8] = []
  /// How much of `kept` OpenSSL has read.
  private var keptRead = 0
  /// The caller's ciphertext while a lending runs (empty otherwise): OpenSSL reads
  /// `lent[lentRead...]` after `kept`.
  private var lent = UnsafeRawBufferPointer(start: nil, count: 0)
  /// How much of `lent` OpenSSL has read.
  private var lentRead = 0
  /// Whether the socket reached its end: once everything is read, OpenSSL reads the end of
  /// the stream instead of "retry when more arrives".
  var incomingEnded = false
  /// Records OpenSSL wrote on its own (handshake messages, alerts, session tickets,
  /// close_notify), until ``take(appendingTo:)``.
  private(set) var outgoing: [UInt8] = []
  /// While a ``TLSSession/send(_:appendingTo:)`` runs, the caller's bytes: the records it
  /// seals are appended there directly.
  var destination: UnsafeMutablePointer<[UInt8]>?

  /// Ciphertext fed or lent and not read by OpenSSL yet.
  var unread: Int { kept.count - keptRead + lent.count - lentRead }

  /// Whether OpenSSL has read everything up to the end of the stream.
  var isAtEnd: Bool { incomingEnded && unread == 0 }

  /// The memory the buffers hold, which the session gives back when it ends.
  var heldBytes: Int { kept.capacity + outgoing.capacity }

  /// Keeps a copy of `ciphertext` for OpenSSL to read.
  func feed(_ ciphertext: UnsafeRawBufferPointer) {
    kept.append(contentsOf: ciphertext.assumingMemoryBound(to: UInt8.self))
  }

  /// Lets OpenSSL read `ciphertext` where it is while `body` runs, after anything kept; then
  /// keeps a copy of what it left unread, so the caller may reuse its buffer.
  func lending<Result, Failure: Error>(
    _ ciphertext: UnsafeRawBufferPointer, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    precondition(lent.isEmpty, "a lending inside a lending")
    lent = ciphertext
    lentRead = 0
    defer {
      let left = UnsafeRawBufferPointer(rebasing: lent[lentRead...])
      lent = UnsafeRawBufferPointer(start: nil, count: 0)
      lentRead = 0
      if !left.isEmpty { feed(left) }
    }
    return try body()
  }

  /// OpenSSL reads up to `count` bytes into `target`: returns how many it got, 0 when nothing
  /// waits.
  func read(into target: UnsafeMutableRawPointer, count: Int) -> Int {
    let fromKept = min(count, kept.count - keptRead)
    if fromKept > 0 {
      kept.withUnsafeBytes { bytes in
        target.copyMemory(from: bytes.baseAddress! + keptRead, byteCount: fromKept)
      }
      keptRead += fromKept
      if keptRead == kept.count {
        kept.removeAll(keepingCapacity: kept.capacity <= Self.keptCapacity)
        keptRead = 0
      }
    }
    let fromLent = min(count - fromKept, lent.count - lentRead)
    if fromLent > 0 {
      (target + fromKept).copyMemory(from: lent.baseAddress! + lentRead, byteCount: fromLent)
      lentRead += fromLent
    }
    return fromKept + fromLent
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
