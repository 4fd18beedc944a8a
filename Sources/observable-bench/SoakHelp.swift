import Glibc

/// Whether the server knows `clear`, from the command list its `help` reply gives.
enum SoakHelp {
  /// Asks `help` on a connection of its own.
  static func listsClear(
    _ address: LoopbackAddress, token: String?, deadline: Deadline
  ) throws(BenchError) -> Bool {
    let connection = try ClientConnection(to: address)
    if let token {
      try Handshake.run([connection], deadline: deadline) { _ in
        #"{"op":"auth","token":"\#(token)"}"#
      }
    }
    connection.queueLine(#"{"op":"help"}"#)
    while true {
      try connection.flush()
      while let line = connection.nextLine() {
        if line.hasPrefix(LineShape.okOpPrefix) { return line.contains(#""clear"#) }
      }
      try deadline.check("waiting for the reply to help")
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, deadline.pollTimeout()) > 0 else { continue }
      if case .closed = try connection.read() {
        throw .unexpected("the server closed the connection that asked for help")
      }
    }
  }
}
