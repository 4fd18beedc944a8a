import Foundation
import Glibc
import TestSupport
import Testing

/// Retained values kept by `--data-dir` across a clean restart, in every `--fsync` mode.
@Suite("The store across restarts", .serialized, .timeLimit(.minutes(2)))
struct StoreRestartTests {
  /// 100 topics of three values each, the last one kept; one is cleared.
  @Test(arguments: ["always", "batch", "off"])
  func aSIGTERMLosesNothingInAnyMode(_ fsync: String) throws {
    try StoreServer.withDirectory { directory in
      let server = try StoreServer(directory: directory, fsync: fsync)
      let client = try LineClient(port: server.port)
      // In windows of 100: with `always`, at most 256 replies may wait for the disk.
      for round in 0..<3 {
        var lines = ""
        for topic in 0..<100 {
          lines +=
            #"{"op":"publish","stream":"s.\#(topic)","value":\#(round * 100 + topic),"retain":true}"#
          lines += "\n"
        }
        try client.sendRaw(Array(lines.utf8))
        for index in 0..<100 {
          let reply = try client.readReply(timeout: .seconds(10))
          #expect(reply["ok"] as? Bool == true, "round \(round), reply \(index): \(reply)")
        }
      }
      #expect(try client.request(#"{"op":"clear","stream":"s.7"}"#)["cleared"] as? Bool == true)
      // A plain publish is not kept.
      #expect(
        try client.request(#"{"op":"publish","stream":"s.8","value":"plain"}"#)["ok"] as? Bool
          == true)
      let stats = try client.stats()
      #expect(stats["store_batches_total", default: 0] >= 1, "\(stats)")
      #expect(stats["store_write_errors_total"] == 0, "\(stats)")
      client.close()
      #expect(server.terminate() == 0, "\(server.process.output)")

      let again = try StoreServer(directory: directory, fsync: fsync)
      #expect(again.process.output.contains("store loaded"), "\(again.process.output)")
      let values = try again.retained(matching: "s.>", expecting: 99)
      #expect(values.count == 99)
      for topic in 0..<100 where topic != 7 {
        #expect(values["s.\(topic)"] == "\(200 + topic)", "s.\(topic)")
      }
      #expect(values["s.7"] == nil)
      again.terminate()
    }
  }

  /// `stats` and `/metrics` show the store's queue, batches and errors.
  @Test func metricsNameTheStoresFigures() throws {
    try StoreServer.withDirectory { directory in
      let httpPort = try freeLoopbackPort()
      let server = try StoreServer(
        directory: directory, fsync: "always", arguments: ["--http", "127.0.0.1:\(httpPort)"])
      let client = try LineClient(port: server.port)
      let reply = try client.request(#"{"op":"publish","stream":"m","value":1,"retain":true}"#)
      #expect(reply["ok"] as? Bool == true, "\(reply)")
      let metrics = try LineClient(port: httpPort, readGreeting: false)
      try metrics.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r")
      var text = ""
      while case .some(let chunk) = try? metrics.readAvailable(timeout: .seconds(5)), !chunk.isEmpty
      {
        text += String(decoding: chunk, as: UTF8.self)
      }
      #expect(text.contains("observable_server_store_batches_total 1"), "\(text)")
      #expect(text.contains("observable_server_store_queued_changes 0"), "\(text)")
      #expect(text.contains("observable_server_store_write_errors_total 0"), "\(text)")
      server.terminate()
    }
  }
}
