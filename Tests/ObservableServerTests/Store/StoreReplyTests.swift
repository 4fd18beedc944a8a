import TestSupport
import Testing

/// The reply to a retained publish with a store, sent at once (`off`) or once durable
/// (`always`): the session encodes the reply of a publish without an `id` once and shares it
/// while the count of receivers stays the same, so each reply must still say its own count.
@Suite("Replies to retained publishes with a store", .serialized, .timeLimit(.minutes(2)))
struct StoreReplyTests {
  @Test(arguments: ["always", "off"])
  func eachReplySaysItsOwnReceiversAndID(_ fsync: String) throws {
    try StoreServer.withDirectory { directory in
      let server = try StoreServer(directory: directory, fsync: fsync)
      defer { server.terminate() }
      let publisher = try LineClient(port: server.port)
      defer { publisher.close() }
      let publish = #"{"op":"publish","stream":"r","value":1,"retain":true}"#

      /// Sends `count` retained publishes in one write and returns their replies' lines.
      func replies(_ count: Int) throws -> [String] {
        try publisher.sendRaw(Array(String(repeating: publish + "\n", count: count).utf8))
        return try (0..<count).map { _ in try publisher.readLine(timeout: .seconds(10)) }
      }
      func expected(_ receivers: Int) -> String {
        #"{"ok":true,"op":"publish","receivers":\#(receivers)}"#
      }

      #expect(try replies(3) == Array(repeating: expected(0), count: 3))
      let first = try LineClient(port: server.port)
      defer { first.close() }
      #expect(try first.request(#"{"op":"subscribe","stream":"r"}"#)["ok"] as? Bool == true)
      #expect(try replies(2) == Array(repeating: expected(1), count: 2))
      let second = try LineClient(port: server.port)
      defer { second.close() }
      #expect(try second.request(#"{"op":"subscribe","stream":"r"}"#)["ok"] as? Bool == true)
      #expect(try replies(1) == [expected(2)])
      // With an id the reply is the request's own, between two shared ones.
      let withID = #"{"op":"publish","stream":"r","value":2,"retain":true,"id":7}"#
      try publisher.sendRaw(Array((publish + "\n" + withID + "\n" + publish + "\n").utf8))
      #expect(try publisher.readLine() == expected(2))
      #expect(try publisher.readLine() == #"{"ok":true,"op":"publish","id":7,"receivers":2}"#)
      #expect(try publisher.readLine() == expected(2))
      #expect(try second.request(#"{"op":"unsubscribe","stream":"r"}"#)["ok"] as? Bool == true)
      #expect(try replies(2) == Array(repeating: expected(1), count: 2))
    }
  }
}
