import Glibc
import ObservablePOSIX
import PeerWire

/// The connection that publishes the broadcasts: blocking, `TCP_NODELAY`, its answers left
/// unread once the server has said it is ready (the line protocol's hello, the answer to a
/// ping).
final class BroadcastPublisher {
  init(server: ComparedServer, port: UInt16, deadline: Deadline) throws(BenchError) {
    self.server = server
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    guard LoopbackAddress(ipv4Port: port).withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
      throw .system(call: "connect publisher", code: errno)
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    try send(server.dialect.publisherOpening(clientID: 0))
    try awaitReady(deadline: deadline)
  }

  deinit { close(fd) }

  /// Publishes `value` to the topic, as a payload of decimal digits.
  func publish(_ value: Int) throws(BenchError) {
    let payload = Array(String(value).utf8)
    let framing = server.dialect.publishFraming(
      topic: BroadcastSubscribers.topic, payloadBytes: payload.count)
    try send(framing.prefix + payload + framing.suffix)
  }

  private func send(_ bytes: [UInt8]) throws(BenchError) {
    let sent = bytes.withUnsafeBytes { raw in
      Result { () throws(SystemError) in try BlockingWrite.send(raw, to: fd) }
    }
    if case .failure(let error) = sent {
      throw .system(call: "send to \(server.rawValue)", code: error.code)
    }
  }

  private func awaitReady(deadline: Deadline) throws(BenchError) {
    let dialect = server.dialect
    let lineDecoder = JSONLineDecoder(stream: BroadcastSubscribers.topic)
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var ready = false
    var refusal: String?
    while !ready {
      try deadline.check("waiting for \(server.rawValue) to answer the publisher")
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard Glibc.poll(&descriptor, 1, deadline.pollTimeout()) > 0 else { continue }
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else {
        throw .server("\(server.rawValue) closed the publisher's connection")
      }
      received += chunk[..<count]
      let decoded = received.withUnsafeBytes { bytes in
        Result { () throws(PeerWireError) in
          try dialect.decode(bytes, lineDecoder: lineDecoder) { message in
            if dialect.publisherReady(message) { ready = true }
            if case .refused(let text) = message { refusal = refusal ?? text }
          }
        }
      }
      switch decoded {
      case .success(let used): received.removeFirst(used)
      case .failure(let error): throw .unexpected("\(server.rawValue): \(error)")
      }
      if let refusal { throw .unexpected("\(server.rawValue) refused the publisher: \(refusal)") }
      guard received.count < 1 << 16 else {
        throw .unexpected("no answer the publisher expected from \(server.rawValue)")
      }
    }
  }

  private let server: ComparedServer
  private let fd: Int32
}
