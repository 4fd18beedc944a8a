import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// `compress` over real sockets, with `Scripts/compressed_client.py` (Python's zlib, sharing
/// no code with the server) as the compressed client and plain ``LineClient``s beside it.
@Suite("Compression over real sockets", .timeLimit(.minutes(2)))
struct CompressionTests {
  /// The values the script expects on its busy topic: `{"seq":N,"text":"observable …"}`.
  static func busyValue(_ seq: Int, width: Int) -> String {
    #"{"seq":\#(seq),"text":"\#(String(repeating: "observable ", count: width))"}"#
  }

  /// A parsed JSON value written out again with sorted keys, so values compare as text.
  static func canonical(_ value: Any?) -> String {
    guard let value, JSONSerialization.isValidJSONObject([value]),
      let data = try? JSONSerialization.data(withJSONObject: [value], options: .sortedKeys)
    else { return "not JSON: \(String(describing: value))" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `json` parsed, then written out like a parsed value.
  static func canonical(_ json: String) -> String {
    canonical(try? JSONSerialization.jsonObject(with: Data(json.utf8)))
  }

  /// Waits until `topic` has `count` subscribers, as `list` reports; `false` on timeout.
  static func waitForSubscribers(
    _ count: Int, on topic: String, via client: LineClient, while script: CompressedClientScript
  ) throws -> Bool {
    try eventually(timeout: .seconds(20)) {
      guard script.isRunning else { return true }
      let streams = try client.request(#"{"op":"list"}"#)["streams"] as? [[String: Any]] ?? []
      return streams.contains {
        $0["name"] as? String == topic && $0["subscribers"] as? Int == count
      }
    } && script.isRunning
  }

  @Test func pythonClientDecodesEveryValueOfABusyTopicAsItArrives() throws {
    let server = try TestServer()
    let sink = try server.connect()
    try sink.request(#"{"op":"subscribe","stream":"from.python"}"#)
    let script = try CompressedClientScript(
      "stream", port: server.port,
      options: ["--topic", "busy", "--expect", "2000", "--publish-count", "200", "--pings", "50"])
    let publisher = try server.connect()
    try #require(
      try Self.waitForSubscribers(1, on: "busy", via: publisher, while: script),
      "the script never subscribed: \(script.diagnostics)")
    for seq in 0..<2000 {
      let value = Self.busyValue(seq, width: 8)
      let reply = try publisher.request(#"{"op":"publish","stream":"busy","value":\#(value)}"#)
      try #require(reply["receivers"] as? Int == 1, "\(reply)")
    }
    let result = try script.result()

    #expect(
      Self.canonical(result["compress_reply"])
        == Self.canonical(#"{"ok":true,"op":"compress","id":"z","algorithm":"deflate"}"#))
    #expect((result["subscribe_reply"] as? [String: Any])?["ok"] as? Bool == true)
    #expect(result["values_received"] as? Int == 2000)
    #expect(result["values_in_order"] as? Bool == true)
    #expect(result["pending_after_values"] as? Int == 0)
    // Every write batch ends in a sync flush, so what arrived always decodes to whole lines.
    // A batch can still reach the client in two recvs; that is rare, so allow 1%.
    let onArrival = try #require(result["values_decoded_on_arrival"] as? Int)
    let split = try #require(result["values_split_across_recvs"] as? Int)
    let recvs = try #require(result["recvs"] as? Int)
    let midLine = try #require(result["recvs_ending_mid_line"] as? Int)
    #expect(onArrival + split == 2000 + 1 + 200 + 50 + 1)
    #expect(split * 100 <= onArrival, "values split across recvs: \(result)")
    #expect(midLine * 100 <= recvs, "recvs ending mid-line: \(result)")
    // Request and reply, one at a time: each reply decoded whole from what had arrived.
    #expect(result["pings_decoded_cleanly"] as? Int == 50)
    #expect((result["trickled_reply"] as? [String: Any])?["id"] as? String == "trickled")
    let compressed = try #require(result["compressed_bytes_in"] as? Int)
    let decompressed = try #require(result["decompressed_bytes_in"] as? Int)
    #expect(compressed * 5 < decompressed, "repetitive JSON lines should compress well: \(result)")

    #expect(result["published"] as? Int == 200)
    #expect(result["publish_receivers"] as? [Int] == [1])
    for seq in 0..<200 {
      let line = try sink.readJSON()
      #expect(line["stream"] as? String == "from.python")
      #expect(Self.canonical(line["value"]) == Self.canonical(#"{"from":"python","seq":\#(seq)}"#))
    }
  }

  /// Values keep being queued from other threads while `compress` is handled; each must go
  /// out plain before the reply or compressed after it, never plain after it.
  @Test func compressingWhileValuesPourInMixesNoPlainBytesIntoTheDeflateStream() throws {
    let server = try TestServer()
    let publisher = try server.connect()
    let stop = LockedValue(false)
    let published = LockedValue(0)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      defer { finished.signal() }
      let deadline = ContinuousClock.now + .seconds(90)
      var seq = 0
      // Batches of publishes in one write keep values arriving densely, which widens the
      // window for a value to land while `compress` is being handled.
      while !stop.value, ContinuousClock.now < deadline {
        let batch = (seq..<seq + 20).map {
          #"{"op":"publish","stream":"hot","value":{"seq":\#($0)}}"#
        }
        do {
          try publisher.sendRaw(Array(batch.joined(separator: "\n").utf8) + [0x0A])
          for _ in batch { _ = try publisher.readReply() }
        } catch {
          return
        }
        seq += batch.count
        published.withLock { $0 = seq }
      }
    }.start()
    defer {
      stop.withLock { $0 = true }
      _ = finished.wait(timeout: .now() + 10)
    }
    #expect(eventually(timeout: .seconds(10)) { published.value > 0 })

    let script = try CompressedClientScript(
      "busy", port: server.port, options: ["--topic", "hot", "--expect", "200", "--rounds", "60"],
      timeout: 60)
    let result = try script.result()
    #expect(result["rounds"] as? Int == 60)
    #expect(result["compress_replies_ok"] as? Int == 60)
    #expect(result["compressed_values"] as? Int == 60 * 200)
    #expect(result["sequence_gaps"] as? Int == 0)
  }

  @Test func secondCompressIsUnsupportedAndTheCompressedConnectionGoesOn() throws {
    let server = try TestServer()
    let result = try CompressedClientScript("second-compress", port: server.port).result()
    #expect((result["compress_reply"] as? [String: Any])?["ok"] as? Bool == true)
    for key in ["second_reply", "shorthand_reply"] {
      let reply = try #require(result[key] as? [String: Any], "\(result)")
      #expect(reply["ok"] as? Bool == false, "\(key)")
      #expect(reply["op"] as? String == "compress", "\(key)")
      #expect((reply["error"] as? [String: Any])?["code"] as? String == "unsupported", "\(key)")
    }
    #expect((result["second_reply"] as? [String: Any])?["id"] as? String == "again")
    #expect(
      Self.canonical(result["ping_reply"]) == Self.canonical(#"{"ok":true,"op":"ping","id":3}"#))
  }

  @Test func shorthandCompressDeflateSwitchesToDeflate() throws {
    let server = try TestServer()
    let result = try CompressedClientScript("shorthand", port: server.port).result()
    #expect(
      Self.canonical(result["compress_reply"])
        == Self.canonical(#"{"ok":true,"op":"compress","algorithm":"deflate"}"#))
    #expect((result["subscribe_reply"] as? [String: Any])?["stream"] as? String == "solo")
    #expect((result["publish_reply"] as? [String: Any])?["receivers"] as? Int == 1)
    #expect(
      Self.canonical(result["deliveries"])
        == Self.canonical(#"[{"stream":"solo","value":{"n":1}}]"#))
    #expect(Self.canonical(result["ping_reply"]) == Self.canonical(#"{"ok":true,"op":"ping"}"#))
  }

  /// Run against the executable, so the log line is the one an operator would see.
  @Test func corruptCompressedInputClosesOnlyThatConnectionAndIsLogged() throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"])
    let port = try #require(server.listeningPort(), "\(server.output)")
    let bystander = try LineClient(port: port)
    try bystander.request("subscribe room")

    let result = try CompressedClientScript("corrupt", port: port).result()
    #expect((result["victim_ping_before"] as? [String: Any])?["id"] as? String == "before")
    #expect(result["victim_closed"] as? Bool == true, "\(result)")
    #expect(
      Self.canonical(result["healthy_ping_after"])
        == Self.canonical(#"{"ok":true,"op":"ping","id":"after"}"#))
    #expect(server.waitForLog("corrupt compressed input"), "\(server.output)")
    #expect(server.output.contains("invalid block type"), "zlib's reason is logged")

    let publisher = try LineClient(port: port)
    #expect(try publisher.request("publish room still here")["receivers"] as? Int == 1)
    #expect(try bystander.readJSON()["value"] as? String == "still here")
    #expect(try bystander.request("ping")["ok"] as? Bool == true)
    server.signal(SIGTERM)
    #expect(server.waitForExit(timeout: .seconds(5)) == 0)
  }

  @Test func statsCountBytesBeforeCompressionBesideBytesSent() throws {
    let server = try TestServer()
    let script = try CompressedClientScript(
      "stream", port: server.port,
      options: [
        "--topic", "burst", "--expect", "300", "--width", "40", "--publish-count", "0",
        "--pings", "1",
      ])
    let publisher = try server.connect()
    try #require(
      try Self.waitForSubscribers(1, on: "burst", via: publisher, while: script),
      "the script never subscribed: \(script.diagnostics)")
    for seq in 0..<300 {
      let value = Self.busyValue(seq, width: 40)
      try publisher.request(#"{"op":"publish","stream":"burst","value":\#(value)}"#)
    }
    let result = try script.result()
    #expect(result["values_received"] as? Int == 300)
    let compressed = try #require(result["compressed_bytes_in"] as? Int)
    let decompressed = try #require(result["decompressed_bytes_in"] as? Int)

    // Plain connections add the same to both counters, so the whole difference is what
    // compression saved on the script's connection, to the byte.
    var stats: [String: Any] = [:]
    let settled = try eventually {
      stats = try server.stats()
      let sent = stats["bytes_out"] as? Int ?? 0
      let before = stats["bytes_out_uncompressed"] as? Int ?? 0
      return before - sent == decompressed - compressed
    }
    #expect(settled, "stats \(stats), script \(result)")
    let sent = try #require(stats["bytes_out"] as? Int)
    let before = try #require(stats["bytes_out_uncompressed"] as? Int)
    #expect(before > sent * 2, "\(stats)")
  }
}
