import Foundation
import ObservableFraming
import TestSupport
import Testing

@testable import ObservableServer
@testable import WebSocket

/// Values compressed once for every WebSocket subscriber without context takeover
/// (`SharedDeflateFrames`), driven by Python's `websockets` package over real sockets beside
/// subscribers that keep their context and subscribers that do not compress.
@Suite("WebSocket shared deflate", .timeLimit(.minutes(1)))
struct WebSocketSharedDeflateTests {
  @Test func everySubscriberDecodesEveryValueInOrderWhateverItNegotiated() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let output = try PythonScript(name: "websocket_shared_deflate.py").run(
      ["--port", "\(server.httpPort)", "--shared", "40", "--values", "200"],
      importing: "websockets")
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    let seen = try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]
    let expected = ["shared": 40, "shared_small_window": 3, "takeover": 3, "plain": 2]
    for (group, count) in expected {
      let entry = try #require(seen[group] as? [String: Any], "\(group)")
      #expect(entry["subscribers"] as? Int == count, "\(group)")
      #expect(entry["in_order"] as? Int == count, "\(group): \(entry)")
      let extensions = entry["extensions"] as? [String] ?? []
      #expect(extensions.count == 1, "\(group): \(extensions)")
      switch group {
      case "plain": #expect(extensions == [""])
      case "takeover":
        #expect(extensions.allSatisfy { !$0.contains("server_no_context_takeover") })
      default:
        #expect(extensions.allSatisfy { $0.contains("server_no_context_takeover") }, "\(group)")
      }
    }
  }

  /// The parameters a `permessage-deflate` offer `offer` gets from the server's policy.
  private func negotiated(_ offer: String) throws -> PerMessageDeflateParameters {
    let offers = [WebSocketExtensionOffer.parse(Substring(offer))].compactMap { $0 }
    return try #require(PerMessageDeflateParameters.negotiate(offers: offers, policy: .lean))
  }

  @Test func connectionsOfOneSettingShareOneEncodingAndOthersDoNot() throws {
    let shared = try negotiated("permessage-deflate; server_no_context_takeover")
    let alsoShared = try negotiated(
      "permessage-deflate; server_no_context_takeover; client_max_window_bits")
    let smaller = try negotiated(
      "permessage-deflate; server_no_context_takeover; server_max_window_bits=10")
    let first = try #require(SharedDeflateFrames.encoding(for: shared))
    #expect(SharedDeflateFrames.encoding(for: alsoShared) === first)
    #expect(SharedDeflateFrames.encoding(for: smaller).map { $0 !== first } == true)
    #expect(SharedDeflateFrames.encoding(for: try negotiated("permessage-deflate")) == nil)
  }

  @Test func sharedFramesInflateToTheLinesOneFramePerLine() throws {
    let parameters = try negotiated("permessage-deflate; server_no_context_takeover")
    let encoding = try #require(SharedDeflateFrames.encoding(for: parameters))
    let lines = Array(#"{"stream":"a","value":1}\#n{"stream":"a","value":"two"}\#n"#.utf8)
    // The same value encoded again gives the same bytes: each frame starts from an empty window.
    let frames = encoding.encode(lines)
    #expect(encoding.encode(lines) == frames)
    var texts: [String] = []
    var start = 0
    while start < frames.count {
      // Compressed text frames (FIN, RSV1), short enough for a one-byte length.
      #expect(frames[start] == 0xC1)
      let length = Int(frames[start + 1])
      let inflater = try PerMessageInflater(windowBits: 15, contextTakeover: false)
      var text: [UInt8] = []
      try Array(frames[(start + 2)..<(start + 2 + length)]).withUnsafeBytes {
        try inflater.inflate($0, appendingTo: &text, limit: 1 << 16)
      }
      try inflater.finishMessage(appendingTo: &text, limit: 1 << 16)
      texts.append(String(decoding: text, as: UTF8.self))
      start += 2 + length
    }
    #expect(texts == [#"{"stream":"a","value":1}"#, #"{"stream":"a","value":"two"}"#])
  }
}
