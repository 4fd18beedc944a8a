import Foundation
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// An unpaired surrogate escape has no Unicode scalar value: I-JSON (RFC 7493) forbids it, and
/// a subscriber's JSON parser may reject the whole line. A publish carrying one is refused as
/// invalid JSON and reaches no subscriber; a surrogate pair passes.
@Suite("Surrogate escapes", .timeLimit(.minutes(1)))
struct SurrogateEscapeTests {
  @Test(arguments: [
    #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud83d\ud83d""#, #"{"k":["a\udbff"]}"#,
    #"{"\udfff":1}"#, #""\ude00\ud83d""#,
  ])
  func anUnpairedSurrogateIsRefusedAndNotDelivered(value: String) throws {
    let (server, subscriber, publisher) = try Self.room()
    defer {
      subscriber.close()
      publisher.close()
      server.stop()
    }
    // Both the compact publish shape and the general parser must refuse it.
    for line in [
      #"{"op":"publish","stream":"room","value":\#(value)}"#,
      #"{"id":1,"op":"publish","stream":"room","value":\#(value)}"#,
    ] {
      let reply = try publisher.request(line)
      #expect(reply["ok"] as? Bool == false, "\(line) -> \(reply)")
      let error = reply["error"] as? [String: Any]
      #expect(error?["code"] as? String == ErrorCode.badRequest.rawValue)
      #expect((error?["message"] as? String)?.contains("surrogate") == true, "\(reply)")
    }
    // Published after the refused ones: the first value the subscriber sees.
    try publisher.request(#"{"op":"publish","stream":"room","value":"\ud83d\ude00"}"#)
    let delivery = try subscriber.read(until: { $0["stream"] as? String == "room" })
    #expect(delivery["value"] as? String == "😀")
  }

  @Test func aSurrogatePairIsDeliveredAsSent() throws {
    let (server, subscriber, publisher) = try Self.room()
    defer {
      subscriber.close()
      publisher.close()
      server.stop()
    }
    let reply = try publisher.request(
      #"{"op":"publish","stream":"room","value":{"\uD83D\uDE00":"\udbff\udfff"}}"#)
    #expect(reply["ok"] as? Bool == true)
    let line = try subscriber.readLine()
    #expect(line.contains(#"{"\uD83D\uDE00":"\udbff\udfff"}"#), "\(line)")
  }

  /// A fresh server, a client subscribed to `room` on it, and a client to publish.
  private static func room() throws -> (TestServer, subscriber: LineClient, publisher: LineClient) {
    let server = try TestServer()
    let subscriber = try server.connect()
    let publisher = try server.connect()
    try subscriber.request(#"{"op":"subscribe","stream":"room"}"#)
    return (server, subscriber, publisher)
  }
}
