import Glibc
import PeerWire

/// Brings fresh connections to a compared server to the point where measuring can start:
/// each sends its opening (over TLS, once the handshake is done) and waits for the message
/// that completes it: a confirmed subscription, or the answer to a publisher's ping.
///
/// Nothing is published before every subscription is confirmed, or the first messages would
/// count as lost; so this is its own phase, outside the measured time.
enum PeerOpening {
  /// Opens `connections`, subscriber `i` to `streams(i)`; `isPublisher(i)` says which
  /// connections publish instead.
  static func run(
    _ connections: [PeerConnection], streams: (Int) -> String, tls: Bool, firstClientID: Int = 0,
    deadline: Deadline, isPublisher: (Int) -> Bool = { _ in false }
  ) throws(BenchError) {
    var waiting = Array(connections.indices)
    for index in waiting {
      let connection = connections[index]
      let dialect = connection.dialect
      try connection.queue(
        isPublisher(index)
          ? dialect.publisherOpening(clientID: firstClientID + index, tls: tls)
          : dialect.subscriberOpening(
            topic: streams(index), clientID: firstClientID + index, tls: tls))
      try connection.flush()
    }
    var descriptors: [pollfd] = []
    while !waiting.isEmpty {
      try deadline.check("waiting for \(waiting.count) connections to be answered")
      descriptors = waiting.map {
        pollfd(fd: connections[$0].descriptor, events: connections[$0].pollEvents, revents: 0)
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout())
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      var stillWaiting: [Int] = []
      for (slot, index) in waiting.enumerated() {
        let connection = connections[index]
        let events = descriptors[slot].revents
        var done = false
        if events & Int16(POLLOUT) != 0 { try connection.flush() }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          let publisher = isPublisher(index)
          var refusal: String?
          let open = try connection.read { message in
            if case .refused(let text) = message { refusal = text }
            let dialect = connection.dialect
            if publisher ? dialect.publisherReady(message) : dialect.subscriberReady(message) {
              done = true
            }
          }
          if let refusal { throw .unexpected(refusal) }
          guard open else { throw .unexpected("the server closed a connection while it opened") }
          try connection.flush()
        }
        if !done { stillWaiting.append(index) }
      }
      waiting = stillWaiting
    }
  }
}
