import CLinux
import Glibc
import PeerWire

/// Many subscriber connections on one epoll thread (the caller's), the same code for every
/// server: non-blocking sockets, and the server's protocol decoding what arrives.
final class BroadcastSubscribers {
  /// The topic every subscriber subscribes to and the publisher publishes to.
  static let topic = "b"

  /// Connects `count` subscribers to `port` and waits until the server confirmed every
  /// subscription; at most `inFlight` wait for confirmation at once, which keeps the listen
  /// backlog from overflowing (a dropped SYN costs a second).
  init(
    server: ComparedServer, port: UInt16, count: Int, inFlight: Int = 256, deadline: Deadline
  ) throws(BenchError) {
    self.server = server
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard epoll >= 0 else { throw .system(call: "epoll_create1", code: errno) }
    let address = LoopbackAddress(ipv4Port: port)
    while descriptors.count < count {
      while descriptors.count < count, descriptors.count - confirmed < inFlight {
        try open(address)
      }
      try deadline.check("subscribing \(count) connections to \(server.rawValue)")
      try poll(timeout: deadline.pollTimeout())
    }
    while confirmed < count {
      try deadline.check("waiting for \(server.rawValue) to confirm \(count) subscriptions")
      try poll(timeout: deadline.pollTimeout())
    }
  }

  deinit {
    for fd in descriptors { close(fd) }
    close(epoll)
    events.deallocate()
    buffer.deallocate()
  }

  /// Subscriptions the server confirmed.
  private(set) var confirmed = 0
  /// Values received, over all subscribers.
  private(set) var delivered = 0
  /// When the latest value arrived, in ``MonotonicTime`` nanoseconds.
  private(set) var lastArrival: UInt64 = 0

  /// Reads until `total` values have arrived in all; returns when the last one did.
  func awaitDelivered(_ total: Int, deadline: Deadline) throws(BenchError) -> UInt64 {
    while delivered < total {
      try deadline.check("waiting for \(server.rawValue) to deliver to every subscriber")
      try poll(timeout: deadline.pollTimeout())
    }
    return lastArrival
  }

  private func open(_ address: LoopbackAddress) throws(BenchError) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    // A blocking connect on loopback returns once the handshake is done; then non-blocking.
    guard address.withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
      let code = errno
      close(fd)
      throw .system(call: "connect \(address)", code: code)
    }
    descriptors.append(fd)
    // MQTT wants a distinct client id on each connection; the publisher's is 0.
    let request = dialect.subscriberOpening(topic: Self.topic, clientID: descriptors.count)
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { throw .system(call: "send subscribe", code: errno) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    while states.count <= Int(fd) { states.append(SubscriberState()) }
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.fd = fd
    guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
      throw .system(call: "epoll_ctl", code: errno)
    }
  }

  private func poll(timeout: Int32) throws(BenchError) {
    let ready = epoll_wait(epoll, events, Int32(Self.eventCapacity), timeout)
    if ready < 0 {
      guard errno == EINTR else { throw .system(call: "epoll_wait", code: errno) }
      return
    }
    for index in 0..<Int(ready) { try readAll(events[index].data.fd) }
  }

  private func readAll(_ fd: Int32) throws(BenchError) {
    while true {
      let count = recv(fd, buffer.baseAddress, buffer.count, 0)
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { return }
        throw .system(call: "recv from \(server.rawValue)", code: errno)
      }
      guard count > 0 else { throw .server("\(server.rawValue) closed a subscriber's connection") }
      try scan(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      if count < buffer.count { return }
    }
  }

  /// Hands each complete message to the protocol's decoder; keeps an unfinished one for the
  /// next read.
  private func scan(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    let index = Int(fd)
    if states[index].carry.isEmpty {
      let used = try decode(fd, bytes)
      states[index].carry.append(contentsOf: bytes[used...])
    } else {
      var carry = states[index].carry
      states[index].carry = []
      carry.append(contentsOf: bytes)
      // withUnsafeBytes rethrows untyped errors, so the typed one is carried out by hand.
      let decoded = carry.withUnsafeBytes { whole -> Result<Int, BenchError> in
        Result { () throws(BenchError) in try decode(fd, whole) }
      }
      carry.removeFirst(try decoded.get())
      states[index].carry = carry
    }
    // A subscriber's messages are short; a runaway one means the protocol was misread.
    guard states[index].carry.count < 1 << 16 else {
      throw .unexpected("a message over 64 KiB from \(server.rawValue)")
    }
  }

  /// Decodes the complete messages at the start of `bytes`; returns how many bytes they took.
  private func decode(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(BenchError) -> Int {
    var refusal: String?
    var pinged = false
    let used: Int
    do {
      used = try dialect.decode(bytes, lineDecoder: lineDecoder) { message in
        switch message {
        case .delivery: arrived()
        case .refused(let text): refusal = refusal ?? text
        case .ping: pinged = true
        default: if dialect.subscriberReady(message) { confirmed += 1 }
        }
      }
    } catch { throw .unexpected("\(server.rawValue): \(error)") }
    if let refusal { throw .unexpected("\(server.rawValue): \(refusal)") }
    if pinged {
      _ = dialect.pingAnswer.withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
    }
    return used
  }

  private func arrived() {
    delivered += 1
    lastArrival = MonotonicTime.now()
  }

  private static let eventCapacity = 4096
  private let server: ComparedServer
  private var dialect: PeerDialect { server.dialect }
  private let lineDecoder = JSONLineDecoder(stream: topic)
  private let epoll: Int32
  private var descriptors: [Int32] = []
  /// Each subscriber's parsing state, indexed by its descriptor.
  private var states: [SubscriberState] = []
  private let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: eventCapacity)
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
}

/// Where one subscriber's parsing stands between reads.
private struct SubscriberState {
  /// The start of a message whose end has not arrived.
  var carry: [UInt8] = []
}
