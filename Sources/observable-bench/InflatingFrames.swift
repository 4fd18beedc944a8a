import Deflate
import Glibc

/// The receiving side of a WebSocket subscriber that agreed on permessage-deflate (RFC 7692):
/// frames are read into a buffer of their own and each text message, inflated when its RSV1
/// bit says so, becomes one line in the connection's line buffer.
///
/// One inflate stream with the largest window serves whether or not the server keeps its
/// context: without context takeover the server simply never refers to earlier messages. A
/// message is inflated only while the line buffer has ``messageRoom`` bytes free, since zlib's
/// progress cannot be undone; the rest waits (``hasPending``) and ``ClientConnection/read()``
/// inflates it before reading the socket again. Belongs to one connection, on one thread.
final class InflatingFrames {
  /// The longest message this client inflates, newline included; the line buffer (16 KiB at
  /// least) always has this much room once its lines are taken.
  static let messageRoom = 8 * 1024

  /// Starts a raw inflate stream; `nil` when zlib cannot allocate it.
  init?(capacity: Int = 64 * 1024) {
    guard let stream = try? InflateDecompressor(windowBits: 15, restartsAtStreamEnd: true)
    else { return nil }
    self.stream = stream
    self.capacity = capacity
    frames = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    frames.deallocate()
    syncFlushTail.deallocate()
  }

  /// Whether whole frames wait for room in the line buffer.
  private(set) var hasPending = false

  /// The bytes of the messages turned into lines, newlines included: what the subscriber
  /// would have read as lines.
  private(set) var plainBytes = 0

  /// Takes the frames that arrived behind the `101` head, in the same read.
  func accept(_ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    guard frameEnd + bytes.count <= capacity else {
      throw .unexpected("more frames behind the upgrade answer than a buffer holds")
    }
    memcpy(frames + frameEnd, base, bytes.count)
    frameEnd += bytes.count
  }

  /// Reads `descriptor` once unless frames wait for room, then turns the whole frames held into
  /// lines at `out` (`room` bytes); returns what the read did and how many bytes of lines
  /// were written.
  func read(
    from descriptor: Int32, into out: UnsafeMutableRawPointer, room: Int
  ) throws(BenchError) -> (outcome: ClientConnection.ReadOutcome, produced: Int) {
    var outcome = ClientConnection.ReadOutcome.bytes(0)
    if !hasPending {
      if frameStart > 0 {
        memmove(frames, frames + frameStart, frameEnd - frameStart)
        frameEnd -= frameStart
        frameStart = 0
      }
      guard frameEnd < capacity else {
        throw .unexpected("a WebSocket frame longer than the \(capacity)-byte frame buffer")
      }
      let count = Glibc.read(descriptor, frames + frameEnd, capacity - frameEnd)
      if count == 0 { return (.closed, 0) }
      if count < 0 {
        switch errno {
        case EINTR, EAGAIN, EWOULDBLOCK: return (.wouldBlock, 0)
        case let code: throw .system(call: "read", code: code)
        }
      }
      frameEnd += count
      outcome = .bytes(count)
    }
    return (outcome, try lines(into: out, room: room))
  }

  /// Turns the whole frames held into lines at `out` while a message fits in `room`; returns
  /// how many bytes it wrote.
  func lines(into out: UnsafeMutableRawPointer, room: Int) throws(BenchError) -> Int {
    var written = 0
    hasPending = false
    while let frame = WebSocketDeframing.frame(in: frames, from: frameStart, to: frameEnd) {
      let payload = UnsafeRawBufferPointer(
        start: frames + frameStart + frame.header, count: frame.length)
      if frame.first & 0x0F == 0x1 {
        let free = room - written
        guard free >= Self.messageRoom else {
          hasPending = true
          break
        }
        var length = payload.count
        if frame.first & 0x40 != 0 {
          length = try inflate(payload, into: out + written, room: free - 1)
        } else {
          guard length < free else { throw .unexpected("a message longer than the line buffer") }
          memcpy(out + written, payload.baseAddress!, length)
        }
        out.storeBytes(of: 0x0A, toByteOffset: written + length, as: UInt8.self)
        written += length + 1
      }
      frameStart += frame.header + frame.length
    }
    plainBytes += written
    return written
  }

  /// Inflates one message's payload and the `00 00 ff ff` its sender removed into `out`;
  /// returns the message's length.
  private func inflate(
    _ payload: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer, room: Int
  ) throws(BenchError) -> Int {
    var produced = 0
    for input in [payload, syncFlushTail] {
      var offset = 0
      while offset < input.count {
        guard produced < room else {
          throw .unexpected("a message inflates past the \(room) bytes a line may take")
        }
        let step: (consumed: Int, produced: Int)
        do {
          step = try stream.inflate(
            UnsafeRawBufferPointer(rebasing: input[offset...]),
            into: UnsafeMutableRawBufferPointer(start: out + produced, count: room - produced))
        } catch {
          throw .unexpected("the server's compressed message does not inflate (\(error))")
        }
        offset += step.consumed
        produced += step.produced
        if step.consumed == 0 && step.produced == 0 {
          throw .unexpected("the server's compressed message stopped inflating")
        }
      }
    }
    return produced
  }

  /// The `00 00 ff ff` permessage-deflate removes from the end of every message.
  private let syncFlushTail: UnsafeRawBufferPointer = {
    let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
    tail.copyBytes(from: [0, 0, 0xFF, 0xFF])
    return UnsafeRawBufferPointer(tail)
  }()
  private let stream: InflateDecompressor
  private let frames: UnsafeMutableRawPointer
  private let capacity: Int
  private var frameStart = 0
  private var frameEnd = 0
}
