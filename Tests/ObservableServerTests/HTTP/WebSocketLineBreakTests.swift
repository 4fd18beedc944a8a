import Foundation
import Testing

@testable import ObservableServer

/// A WebSocket message has no line framing, but every delivery is one line: raw line breaks
/// in a message are whitespace (or, trailing, framing), never relayed to TCP subscribers.
@Suite("WebSocket line breaks", .timeLimit(.minutes(1)))
struct WebSocketLineBreakTests {
  @Test func prettyPrintedJSONReachesATCPSubscriberAsOneLine() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let subscriber = try server.connect()
    try subscriber.request(#"{"op":"subscribe","stream":"pretty","id":1}"#)
    let output = try PythonScript(name: "websocket_limits.py").run(
      ["--port", "\(server.httpPort)", "line_breaks"], importing: "websockets")
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    let seen = try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]

    #expect((seen["pretty_reply"] as? [String: Any])?["ok"] as? Bool == true, "\(seen)")
    // One trailing `\n` or `\r\n` is framing: the request is `ping`.
    for name in ["ping_lf", "ping_crlf", "json_ping_lf"] {
      let reply = seen[name] as? [String: Any]
      #expect(
        reply?["ok"] as? Bool == true && reply?["op"] as? String == "ping", "\(name): \(seen)")
    }
    // A raw line break inside a string is not JSON: refused, not rewritten into a space.
    let refused = (seen["raw_break_in_string"] as? [String: Any])?["error"] as? [String: Any]
    #expect(refused?["code"] as? String == "bad_request", "\(seen)")
    #expect((refused?["message"] as? String)?.contains("control character") == true)

    // The subscriber reads the pretty value as one line, then the marker: nothing in between.
    try server.connect().request(#"{"op":"publish","stream":"pretty","value":"end","id":2}"#)
    let delivery = try subscriber.readLine()
    let value = try #require(
      (try JSONSerialization.jsonObject(with: Data(delivery.utf8)) as? [String: Any])?["value"]
        as? [String: Any], "\(delivery)")
    #expect(value["name"] as? String == "line\nbreak")
    #expect((value["list"] as? [Any])?.count == 3)
    #expect(((value["list"] as? [Any])?.last as? [String: Any])?["deep"] as? Bool == true)
    #expect((value["empty"] as? [String: Any])?.isEmpty == true)
    let marker = try subscriber.readLine()
    #expect(marker.contains(#""value":"end""#), "\(marker)")
  }
}
