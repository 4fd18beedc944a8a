import Foundation
import Glibc
import Locking

@testable import ObservableServer

/// A stand-in server on loopback that speaks protocol 1.1 from a script: it greets, answers
/// `ok` to each of the first `requests` request lines, then sends `lines`, and keeps the
/// connection open until it goes away. Every connection it accepts gets the same script. For behaviour the real server does not have yet.
final class ScriptedServer {
  let port: UInt16
  private let listener: Int32
  // Shared with the script's thread, which ends once the script is done.
  private let connection = Received<Int32>()

  init(greeting: String, requests: Int, then lines: [String]) throws {
    listener = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 1)
    port = SocketCalls.boundPort(listener) ?? 0
    let listener = self.listener
    let connection = self.connection
    // Blocking, so the thread waits in accept; deinit's shutdown wakes it if nobody connects.
    _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) & ~O_NONBLOCK)
    // Every connection gets the script, each on a thread of its own: a client of another
    // test, reconnecting to a port this listener was later given, must not take the one
    // conversation this test waits for.
    let thread = Thread {
      while true {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        connection.append(fd)
        Thread { Self.converse(on: fd, greeting: greeting, requests: requests, then: lines) }
          .start()
      }
    }
    thread.start()
  }

  private static func converse(on fd: Int32, greeting: String, requests: Int, then lines: [String])
  {
    func send(_ line: String) {
      let bytes = Array((line + "\n").utf8)
      _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    send(greeting)
    var answered = 0
    var byte: UInt8 = 0
    while answered < requests, read(fd, &byte, 1) == 1 {
      if byte == 0x0A {
        answered += 1
        send(#"{"ok":true,"op":"subscribe"}"#)
      }
    }
    for line in lines { send(line) }
  }

  deinit {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for fd in connection.all { close(fd) }
  }
}
