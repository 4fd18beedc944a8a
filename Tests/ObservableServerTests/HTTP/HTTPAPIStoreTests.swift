import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// The HTTP API on a store (`--data-dir`, `--fsync always`): a retained publish answered `200`
/// is there after a restart, and a full disk answers `503 unavailable` while plain publishes
/// go on, as the line protocol's publish does.
@Suite("HTTP API on a store", .serialized, .timeLimit(.minutes(2)))
struct HTTPAPIStoreTests {
  @Test func aFullStoreAnswers503AndWhatWasAnsweredSurvivesARestart() throws {
    guard geteuid() == 0 || RequiredTool.isCI() else { return }
    try StoreServer.withDirectory { directory in
      let mount = try TmpfsMount(size: "4m", in: directory)
      defer { mount.unmount() }
      let store = StoreConfiguration(directory: mount.path + "/data", fsync: .always)
      let server = try TestServer.withHTTP { $0.store = store }
      let client = try HTTPAPIClient(server)
      let kept = try client.exchange(
        "POST", "/publish", body: #"{"stream":"f.kept","value":1,"retain":true}"#)
      #expect(kept.status == 200, "\(kept.body)")
      let filler = Glibc.open(mount.path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      let block = [UInt8](repeating: 0xAB, count: 4_096)
      while block.withUnsafeBytes({ Glibc.write(filler, $0.baseAddress, $0.count) }) > 0 {}
      Glibc.close(filler)
      let big = String(repeating: "x", count: 200 << 10)
      let refused = try eventually(timeout: .seconds(20)) {
        try client.exchange(
          "POST", "/publish", body: #"{"stream":"f.big","value":"\#(big)","retain":true}"#
        ).status == 503
      }
      #expect(refused)
      let full = try client.exchange(
        "POST", "/publish", body: #"{"stream":"f.other","value":2,"retain":true}"#)
      #expect(full.status == 503 && full.errorCode == "unavailable", "\(full.body)")
      let plain = try client.exchange("POST", "/publish", body: #"{"stream":"f.plain","value":3}"#)
      #expect(plain.status == 200, "\(plain.body)")
      client.close()
      server.stop()

      #expect(unlink(mount.path + "/filler") == 0)
      let restarted = try TestServer.withHTTP { $0.store = store }
      defer { restarted.stop() }
      let reader = try HTTPAPIClient(restarted)
      defer { reader.close() }
      #expect(
        try reader.exchange("GET", "/streams/f.kept").body == #"{"stream":"f.kept","value":1}"#
          + "\n")
      #expect(try reader.exchange("GET", "/streams/f.other").status == 404)
    }
  }
}
