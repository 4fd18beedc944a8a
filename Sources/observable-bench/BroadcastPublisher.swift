import Glibc
import ObservablePOSIX

/// The connection that publishes the broadcasts: blocking, `TCP_NODELAY`, its answers left
/// unread except the one that says it is ready (a greeting, a NATS `PONG`).
final class BroadcastPublisher {
  init(peer: BroadcastPeer, port: UInt16, deadline: Deadline) throws(BenchError) {
    self.peer = peer
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    guard LoopbackAddress(ipv4Port: port).withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
      throw .system(call: "connect publisher", code: errno)
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    guard let setup = peer.publisherSetup else { return }
    try send(setup.request)
    try awaitAnswer(setup.answer, deadline: deadline)
  }

  deinit { close(fd) }

  /// Publishes `value` to the topic.
  func publish(_ value: Int) throws(BenchError) {
    try send(peer.publishRequest(value))
  }

  private func send(_ bytes: [UInt8]) throws(BenchError) {
    let sent = bytes.withUnsafeBytes { raw in
      Result { () throws(SystemError) in try BlockingWrite.send(raw, to: fd) }
    }
    if case .failure(let error) = sent {
      throw .system(call: "send to \(peer.rawValue)", code: error.code)
    }
  }

  private func awaitAnswer(_ answer: String, deadline: Deadline) throws(BenchError) {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while !String(decoding: received, as: UTF8.self).contains(answer) {
      try deadline.check("waiting for \(peer.rawValue) to answer the publisher")
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard Glibc.poll(&descriptor, 1, deadline.pollTimeout()) > 0 else { continue }
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { throw .server("\(peer.rawValue) closed the publisher's connection") }
      received += chunk[..<count]
      guard received.count < 1 << 16 else {
        throw .unexpected("no \(answer) from \(peer.rawValue)")
      }
    }
  }

  private let peer: BroadcastPeer
  private let fd: Int32
}
