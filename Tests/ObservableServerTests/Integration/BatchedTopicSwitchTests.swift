import Foundation
import Testing

@testable import ObservableServer

/// The batching of publishes recognises the batch's topic by the bytes of the request line, not
/// by a decoded name: these are the cases where those bytes could mislead it.
@Suite("Batched publishes switch topics", .timeLimit(.minutes(1)))
struct BatchedTopicSwitchTests {
  private static func publish(_ stream: String, _ value: Int) -> String {
    #"{"op":"publish","stream":"\#(stream)","value":\#(value)}"#
  }

  @Test func namesOfTheSameLengthAreNeverBatchedTogether() throws {
    let server = try TestServer()
    let names = ["a.1", "a.2", "b.1"]
    let subscribers = try names.map { name in
      let client = try server.connect()
      try client.request("subscribe \(name)")
      return client
    }
    let publisher = try server.connect()
    // Runs of one name, then another of the same length, so that every switch happens
    // in the middle of a batch.
    let targets = (0..<900).map { names[($0 / 7 + $0 / 50) % names.count] }
    let lines = targets.enumerated().map { Self.publish($0.element, $0.offset) }
    try publisher.sendRaw(Array(lines.joined(separator: "\n").utf8) + [0x0A])
    for index in targets.indices {
      #expect(try publisher.readJSON()["receivers"] as? Int == 1, "reply \(index)")
    }
    for (name, subscriber) in zip(names, subscribers) {
      let expected = targets.indices.filter { targets[$0] == name }
      #expect(!expected.isEmpty)
      for value in expected {
        let delivery = try subscriber.readJSON()
        #expect(delivery["stream"] as? String == name)
        #expect(delivery["value"] as? Int == value)
      }
    }
  }

  @Test func aTopicDroppedAndMadeAgainGetsTheNextBatch() throws {
    let server = try TestServer()
    let first = try server.connect()
    try first.request("subscribe again")
    let publisher = try server.connect()
    // The publisher's last topic becomes `again`, which is then dropped when its only
    // subscriber leaves and made anew, under the same name, by the next subscriber.
    #expect(try publisher.request(Self.publish("again", -1))["receivers"] as? Int == 1)
    #expect(try first.readJSON()["value"] as? Int == -1)
    try first.request("unsubscribe again")
    let second = try server.connect()
    try second.request("subscribe again")
    let count = 500
    let lines = (0..<count).map { Self.publish("again", $0) }
    try publisher.sendRaw(Array(lines.joined(separator: "\n").utf8) + [0x0A])
    for index in 0..<count {
      #expect(try publisher.readJSON()["receivers"] as? Int == 1, "reply \(index)")
    }
    for value in 0..<count {
      #expect(try second.readJSON()["value"] as? Int == value)
    }
  }
}
