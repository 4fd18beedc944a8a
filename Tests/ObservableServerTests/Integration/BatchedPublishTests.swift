import Foundation
import TestSupport
import Testing

@testable import Deflate
@testable import ObservableServer

/// Many requests in one write: the publishes a read holds go out together, and nothing about
/// that is visible except speed. Replies keep the order of the requests, every value arrives
/// once and in order, and each publish is acknowledged after its value was delivered.
@Suite("Publishes batched per read", .timeLimit(.minutes(1)))
struct BatchedPublishTests {
  private static func publish(_ stream: String, _ value: Int) -> String {
    #"{"op":"publish","stream":"\#(stream)","value":\#(value)}"#
  }

  @Test func repliesKeepRequestOrderAroundEveryOtherKindOfRequest() throws {
    let server = try TestServer()
    let subscribers = try (0..<2).map { _ in try server.connect() }
    for subscriber in subscribers { try subscriber.request("subscribe t") }
    let publisher = try server.connect()
    // The first publish makes `t` the publisher's last topic, so the rest can be batched.
    var lines = (0..<400).map { Self.publish("t", $0) }
    lines.append(#"{"op":"ping","id":"middle"}"#)
    lines += (400..<800).map { Self.publish("t", $0) }
    lines.append(#"{"op":"publish","stream":"t","value":800,"id":"with-id"}"#)
    lines.append("{not json")
    lines += (801..<901).map { Self.publish("t", $0) }
    lines.append(Self.publish("elsewhere", 0))
    lines += (901..<1000).map { Self.publish("t", $0) }
    lines.append("publish t 1000")
    lines.append(#"{"op":"ping","id":"end"}"#)
    try publisher.sendRaw(Array(lines.joined(separator: "\n").utf8) + [0x0A])

    for index in 0..<1005 {
      let reply = try publisher.readJSON()
      switch index {
      case 400: #expect(reply["id"] as? String == "middle")
      case 801:
        #expect(reply["id"] as? String == "with-id")
        #expect(reply["receivers"] as? Int == 2)
      case 802: #expect(reply["error"] != nil, "the bad line's error, in its place: \(reply)")
      case 903: #expect(reply["receivers"] as? Int == 0, "elsewhere has no subscriber")
      case 1004: #expect(reply["id"] as? String == "end")
      default:
        #expect(reply["op"] as? String == "publish" && reply["receivers"] as? Int == 2, "\(index)")
        #expect(reply["id"] == nil)
      }
    }
    for subscriber in subscribers {
      for value in 0...1000 {
        let delivery = try subscriber.readJSON()
        #expect(delivery["stream"] as? String == "t")
        #expect(delivery["value"] as? Int == value)
      }
    }
  }

  @Test func aPublisherSubscribedToItsTopicSeesEachValueBeforeItsReply() throws {
    let server = try TestServer()
    let client = try server.connect()
    try client.request("subscribe own")
    let count = 300
    let lines = (0..<count).map { Self.publish("own", $0) }
    try client.sendRaw(Array(lines.joined(separator: "\n").utf8) + [0x0A])
    var delivered = 0
    var replied = 0
    while replied < count {
      let line = try client.readJSON()
      if line["ok"] != nil {
        #expect(line["receivers"] as? Int == 1)
        replied += 1
        #expect(replied <= delivered, "reply \(replied) came before its value")
      } else {
        #expect(line["value"] as? Int == delivered)
        delivered += 1
      }
    }
    #expect(delivered == count)
  }

  @Test func statsCountEveryBatchedPublishAndDelivery() throws {
    let server = try TestServer()
    let subscribers = try (0..<3).map { _ in try server.connect() }
    for subscriber in subscribers { try subscriber.request("subscribe counted") }
    let publisher = try server.connect()
    let count = 2_000
    let lines = (0..<count).map { Self.publish("counted", $0) }
    try publisher.sendRaw(Array(lines.joined(separator: "\n").utf8) + [0x0A])
    for _ in 0..<count { #expect(try publisher.readJSON()["receivers"] as? Int == 3) }
    let stats = try server.stats()
    #expect(stats["published_total"] as? Int == count)
    #expect(stats["delivered_total"] as? Int == count * subscribers.count)
  }

  @Test func aCompressedReadThatInflatesPastTheBatchLimitArrivesWhole() throws {
    let server = try TestServer()
    let subscriber = try server.connect()
    try subscriber.request("subscribe big")
    let publisher = try server.connect()
    #expect(try publisher.request("compress deflate")["ok"] as? Bool == true)
    // About a megabyte of publishes, compressed to a few kilobytes: one read on the server that
    // inflates to many times the batch limit.
    let count = 1_000
    let lines = (0..<count).map {
      #"{"op":"publish","stream":"big","value":"\#($0) \#(String(repeating: "x", count: 1_000))"}"#
    }
    let compressor = try DeflateCompressor()
    var wire: [UInt8] = []
    Array((lines.joined(separator: "\n") + "\n").utf8).withUnsafeBytes {
      compressor.compress($0, appendingTo: &wire)
    }
    #expect(wire.count * 16 < count * 1_000)
    try publisher.sendRaw(wire)
    for index in 0..<count {
      let value = try subscriber.readJSON()["value"] as? String ?? ""
      #expect(value.hasPrefix("\(index) x") && value.count == 1_001 + "\(index)".count)
    }
    #expect(try server.stats()["published_total"] as? Int == count)
  }
}
