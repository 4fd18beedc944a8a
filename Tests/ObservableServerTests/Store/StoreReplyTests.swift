import TestSupport
import Testing

/// The reply to a retained publish with a store, sent at once (`off`) or once durable
/// (`always`): the session encodes the reply of a publish without an `id` once and shares it
/// while the count of receivers stays the same, so each reply must still say its own count.
@Suite("Replies to retained publishes with a store", .serialized, .timeLimit(.minutes(2)))
struct StoreReplyTests {
  @Test(arguments: ["always", "off"])
  func eachReplySaysItsOwnReceiversAndID(_ fsync: String) throws {
    try StoreServer.withClient(fsync: fsync) { server, publisher, _ in
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

  /// One read of 600 requests, of which 300 retained publishes: with `always`, the session
  /// hands them to the store in groups before the read ends, so their replies come back group
  /// by group, while the plain publishes', clears' and gets' wait their turn. Every reply must
  /// come in its request's order, and each `get` must see the values before it, and no later.
  @Test(arguments: ["always", "batch"])
  func aLongReadIsAnsweredInTheOrderOfItsRequests(_ fsync: String) throws {
    try StoreServer.withClient(fsync: fsync) { server, client, directory in
      var lines: [String] = []
      var expected: [(op: String, id: Int?, value: Int?)] = []
      var retained: [String: Int] = [:]
      for index in 0..<600 {
        let topic = "q.\(index % 7)"
        switch index % 6 {
        case 0, 1, 3:
          let id = index % 2 == 0 ? #","id":\#(index)"# : ""
          lines.append(
            #"{"op":"publish","stream":"\#(topic)","value":\#(index),"retain":true\#(id)}"#)
          expected.append(("publish", index % 2 == 0 ? index : nil, nil))
          retained[topic] = index
        case 2:
          lines.append(#"{"op":"publish","stream":"p","value":\#(index),"id":\#(index)}"#)
          expected.append(("publish", index, nil))
        case 4:
          lines.append(#"{"op":"clear","stream":"\#(topic)","id":\#(index)}"#)
          expected.append(("clear", index, nil))
          retained[topic] = nil
        default:
          lines.append(#"{"op":"get","stream":"\#(topic)","id":\#(index)}"#)
          expected.append(("get", index, retained[topic]))
        }
      }
      try client.sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8))
      for (index, want) in expected.enumerated() {
        var line = try client.readJSON(timeout: .seconds(20))
        if let value = want.value {
          #expect(line["value"] as? Int == value, "the get of request \(index)")
          line = try client.readJSON(timeout: .seconds(20))
        }
        #expect(line["ok"] as? Bool == true, "request \(index): \(line)")
        #expect(line["op"] as? String == want.op, "request \(index): \(line)")
        #expect(line["id"] as? Int == want.id, "request \(index): \(line)")
      }
      // The values kept are the last of each topic, read back after a restart.
      server.terminate()
      let restarted = try StoreServer(directory: directory, fsync: fsync)
      defer { restarted.terminate() }
      let reader = try LineClient(port: restarted.port)
      defer { reader.close() }
      for topic in (0..<7).map({ "q.\($0)" }) {
        let reply = try reader.request(#"{"op":"get","stream":"\#(topic)"}"#)
        #expect(reply["count"] as? Int == (retained[topic] == nil ? 0 : 1), "\(topic)")
        #expect(reader.takeDeliveries().first?["value"] as? Int == retained[topic], "\(topic)")
      }
    }
  }
}
