import Foundation
import Glibc
import Locking

@testable import ObservablePOSIX
@testable import ObservableServer

/// A stand-in server on loopback that speaks protocol 1.1 from a script: it greets, answers
/// `ok` to each of the first `requests` request lines, then sends `lines`, and keeps the
/// connection open until it goes away. Every connection it accepts gets the same script. For
/// behaviour the real server does not have yet.
///
/// Each descriptor is closed by the thread that uses it, never by `deinit`: a number closed
/// under a thread still using it can be given to another test's socket at once, and the
/// thread would then read that socket's bytes or write the script into it. `deinit` only shuts
/// the sockets down, which wakes the threads, under the lock the threads close them under.
final class ScriptedServer {
  let port: UInt16
  private let listener: Int32
  private let sockets = ScriptedSockets()

  init(greeting: String, requests: Int, then lines: [String]) throws {
    listener = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 1)
    port = SocketCalls.boundPort(listener) ?? 0
    let listener = self.listener
    let sockets = self.sockets
    // Blocking, so the thread waits in accept; deinit's shutdown wakes it if nobody connects.
    _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) & ~O_NONBLOCK)
    // Every connection gets the script, each on a thread of its own: a client of another
    // test, reconnecting to a port this listener was later given, must not take the one
    // conversation this test waits for.
    let thread = Thread {
      while true {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { break }
        let admitted = sockets.state.withLock { open in
          if open.ended { return false }
          open.conversations.insert(fd)
          return true
        }
        guard admitted else {
          close(fd)
          break
        }
        Thread {
          Self.converse(on: fd, greeting: greeting, requests: requests, then: lines)
          sockets.state.withLock { open in
            open.conversations.remove(fd)
            close(fd)
          }
        }.start()
      }
      sockets.state.withLock { open in
        open.listenerOpen = false
        close(listener)
      }
    }
    thread.start()
  }

  /// Plays the script on `fd`, then reads until the client goes away or `deinit` shuts the
  /// socket down.
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
    var rest = [UInt8](repeating: 0, count: 1024)
    while read(fd, &rest, rest.count) > 0 {}
  }

  deinit {
    sockets.state.withLock { open in
      open.ended = true
      if open.listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
      for fd in open.conversations { shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }
}

/// The descriptors a ``ScriptedServer`` still has open, shared with its threads; a thread
/// closes its own under the lock and removes it.
private final class ScriptedSockets: Sendable {
  struct State {
    var conversations: Set<Int32> = []
    var listenerOpen = true
    var ended = false
  }

  let state = Locked(State())
}
