import Glibc

@testable import ObservablePOSIX
@testable import ObservableServer

/// A ring writer that behaves as a connection does, on one end of a connected pair of sockets
/// with a small send buffer: it advances past what a send took, stops on a full socket, stops
/// for good on an error, and writes directly with `send` when the ring hands it back.
final class SocketPairWriter: RingWriter {
  /// A writer of `bytes` over a fresh Unix socket pair.
  convenience init(bytes: [UInt8]) throws {
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      throw SystemError(call: "socketpair", code: errno)
    }
    self.init(descriptor: ends[0], peer: ends[1], bytes: bytes)
  }

  /// A writer of `bytes` on `descriptor`, whose other end is `peer`; it closes both.
  init(descriptor: Int32, peer: Int32, bytes: [UInt8]) {
    self.descriptor = descriptor
    self.peer = peer
    self.bytes = bytes
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    var small: Int32 = 4096
    setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit {
    close(descriptor)
    if peer >= 0 { close(peer) }
  }

  let descriptor: Int32
  /// The other end, or -1 once the test closed it.
  var peer: Int32
  var awaitingRing = false
  let bytes: [UInt8]
  /// How far the writer got: every byte before it was sent.
  var offset = 0
  /// Each outcome the ring gave, in order: "sent N", "full" or "error CODE".
  var outcomes: [String] = []
  /// How many times the ring handed the writer back to write directly.
  var directWrites = 0
  /// Set after an error: the writer sends nothing more, as a closed connection would.
  var failed = false

  func prepareWrite() -> Bool { !failed && offset < bytes.count }

  var unsentCount: Int { bytes.count - offset }

  /// Its bytes never change, so they stay where they are without holding more.
  func gatherUnsent(into pieces: UnsafeMutableBufferPointer<iovec>) -> Int {
    bytes.withUnsafeBytes {
      pieces[0] = iovec(
        iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress! + offset), iov_len: unsentCount)
    }
    sendsInFlight += 1
    return 1
  }

  /// How many sends the ring has gathered and not yet settled: 0 or 1, never more.
  var sendsInFlight = 0

  func sendSettled() {
    sendsInFlight -= 1
  }

  func withUnsentBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
    bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
  }

  func wrote(_ outcome: Result<IOResult<Int>, SystemError>) -> Bool {
    switch outcome {
    case .success(.done(let count)):
      outcomes.append("sent \(count)")
      offset += count
      return offset < bytes.count
    case .success(.wouldBlock):
      outcomes.append("full")
      return false
    case .failure(let error):
      outcomes.append("error \(error.code)")
      failed = true
      return false
    }
  }

  func writeNow() {
    directWrites += 1
    while prepareWrite() {
      let sent = withUnsentBytes { unsent in
        Result { () throws(SystemError) in try SocketCalls.send(descriptor, unsent) }
      }
      guard case .success(.done(let count)) = sent else { return }
      offset += count
    }
  }

  /// Closes the other end, so the next send fails with EPIPE.
  func closePeer() {
    close(peer)
    peer = -1
  }

  /// What the other end has received since it was last asked, without waiting.
  func received() -> [UInt8] {
    var all: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while peer >= 0 {
      let count = recv(peer, &chunk, chunk.count, Int32(MSG_DONTWAIT))
      guard count > 0 else { break }
      all += chunk[..<count]
    }
    return all
  }
}
