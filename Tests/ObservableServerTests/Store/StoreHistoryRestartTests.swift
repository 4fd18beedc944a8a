import Foundation
import Glibc
import TestSupport
import Testing

/// Topic history kept by `--data-dir` with `--history`: values survive a restart, positions
/// from before a clean restart resume after it, and after a SIGKILL the epoch changes, so that
/// a client resuming from an old position learns that it may have missed values.
@Suite("History in the store across restarts", .serialized, .timeLimit(.minutes(2)))
struct StoreHistoryRestartTests {
  static let arguments = ["--history", "5"]

  @Test(arguments: ["always", "batch", "off"])
  func positionsResumeAcrossACleanRestart(_ fsync: String) throws {
    try StoreServer.withDirectory { directory in
      let server = try StoreServer(directory: directory, fsync: fsync, arguments: Self.arguments)
      let client = try LineClient(port: server.port)
      for value in 1...8 { try client.request("publish h.a \(value)") }
      let retained = try client.request(
        #"{"op":"publish","stream":"h.b","value":"kept","retain":true}"#)
      #expect(retained["ok"] as? Bool == true, "\(retained)")
      let before = try client.history("h.a").values
      #expect(before.map { $0["value"] as? Int } == [4, 5, 6, 7, 8])
      let positions = before.compactMap { $0["pos"] as? String }
      let retainedBefore = try positionedValue(of: "h.b", at: server.port)
      client.close()
      #expect(server.terminate() == 0, "\(server.process.output)")

      let again = try StoreServer(directory: directory, fsync: fsync, arguments: Self.arguments)
      defer { again.terminate() }
      let resumed = try LineClient(port: again.port)
      let reply = try resumed.request(
        #"{"op":"subscribe","stream":"h.a","since":"\#(positions[2])"}"#)
      #expect(reply["recovered"] as? Bool == true, "\(reply)")
      #expect(try resumed.readValues(2).map { $0["value"] as? Int } == [7, 8])
      let publisher = try LineClient(port: again.port)
      try publisher.request("publish h.a 9")
      let live = try resumed.readValues(1)
      let epoch = positions[0].split(separator: "-")[0]
      let livePosition = live.first?["pos"] as? String ?? ""
      #expect(livePosition.hasPrefix("\(epoch)-"), "\(livePosition) after \(positions)")
      #expect(sequence(livePosition) > sequence(positions[4]), "\(livePosition)")
      // The retained value comes with the position it had before the restart.
      #expect(try positionedValue(of: "h.b", at: again.port) == retainedBefore)
      #expect(try publisher.history("h.a").values.map { $0["value"] as? Int } == [5, 6, 7, 8, 9])
    }
  }

  @Test func aSIGKILLKeepsWhatWasWrittenAndChangesTheEpoch() throws {
    try StoreServer.withDirectory { directory in
      let server = try StoreServer(directory: directory, fsync: "always", arguments: Self.arguments)
      let client = try LineClient(port: server.port)
      for value in 1...3 { try client.request("publish h.a \(value)") }
      // Its reply comes once its transaction is durable, and the plain values' are before it.
      let retained = try client.request(
        #"{"op":"publish","stream":"h.b","value":"kept","retain":true}"#)
      #expect(retained["ok"] as? Bool == true, "\(retained)")
      let positions = try client.history("h.a").values.compactMap { $0["pos"] as? String }
      #expect(positions.count == 3)
      server.kill()

      let again = try StoreServer(directory: directory, fsync: "always", arguments: Self.arguments)
      defer { again.terminate() }
      let resumed = try LineClient(port: again.port)
      let reply = try resumed.request(
        #"{"op":"subscribe","stream":"h.a","since":"\#(positions[0])"}"#)
      #expect(reply["recovered"] as? Bool == false, "\(reply)")
      let values = try resumed.readValues(3)
      #expect(values.map { $0["value"] as? Int } == [1, 2, 3])
      let newEpoch = (values.first?["pos"] as? String ?? "").split(separator: "-").first
      #expect(newEpoch != positions[0].split(separator: "-").first, "\(values)")
    }
  }

  /// The position `"NAME-SEQUENCE"`'s sequence.
  private func sequence(_ position: String) -> UInt64 {
    position.split(separator: "-").last.flatMap { UInt64($0) } ?? 0
  }

  /// The retained value of `stream` as a positioned subscribe delivers it: its whole line.
  private func positionedValue(of stream: String, at port: UInt16) throws -> String {
    let client = try LineClient(port: port)
    defer { client.close() }
    try client.request(#"{"op":"subscribe","stream":"\#(stream)","pos":true}"#)
    return try client.readLine()
  }
}
