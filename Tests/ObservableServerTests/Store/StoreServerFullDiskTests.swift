import Foundation
import Glibc
import TestSupport
import Testing

/// A full disk under the store: retained publishes answer `unavailable` and change nothing,
/// plain publishes go on, and once there is room again the store catches up.
@Suite("The store on a full disk", .serialized, .timeLimit(.minutes(2)))
struct StoreServerFullDiskTests {
  /// Fills the file system with a file at `filler` until a write fails.
  private func fill(_ filler: String) {
    let descriptor = Glibc.open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else {
      Issue.record("cannot make \(filler)")
      return
    }
    defer { Glibc.close(descriptor) }
    let block = [UInt8](repeating: 0xAB, count: 4_096)
    while block.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

  @Test(arguments: ["always", "batch"])
  func retainedPublishesAnswerUnavailableWhilePlainOnesGoOn(_ fsync: String) throws {
    guard geteuid() == 0 || RequiredTool.isCI() else { return }
    try StoreServer.withDirectory { directory in
      let mount = try TmpfsMount(size: "4m", in: directory)
      defer { mount.unmount() }
      let data = mount.path + "/data"
      let server = try StoreServer(directory: data, fsync: fsync)
      let client = try LineClient(port: server.port)
      #expect(
        try client.request(#"{"op":"publish","stream":"f.kept","value":1,"retain":true}"#)["ok"]
          as? Bool == true)
      fill(mount.path + "/filler")

      // Values this size make the log grow, and there is no room: within a few, one fails
      // and from then on every retained publish is refused.
      let big = String(repeating: "x", count: 200 << 10)
      let refused = try eventually(timeout: .seconds(20)) {
        let reply = try client.request(
          #"{"op":"publish","stream":"f.big","value":"\#(big)","retain":true}"#)
        return (reply["error"] as? [String: Any])?["code"] as? String == "unavailable"
      }
      #expect(refused, "\(server.process.output)")
      let again = try client.request(
        #"{"op":"publish","stream":"f.other","value":2,"retain":true}"#)
      #expect((again["error"] as? [String: Any])?["code"] as? String == "unavailable", "\(again)")
      let plain = try client.request(#"{"op":"publish","stream":"f.plain","value":3}"#)
      #expect(plain["ok"] as? Bool == true, "\(plain)")
      #expect(try client.stats()["store_write_errors_total", default: 0] >= 1)
      #expect(server.process.output.contains("store write failed"), "\(server.process.output)")

      // Room again: the store writes what it holds, then takes retained publishes again.
      #expect(unlink(mount.path + "/filler") == 0)
      let accepted = try eventually(timeout: .seconds(20)) {
        let reply = try client.request(
          #"{"op":"publish","stream":"f.after","value":4,"retain":true}"#)
        return reply["ok"] as? Bool == true
      }
      #expect(accepted, "\(server.process.output)")
      client.close()
      #expect(server.terminate() == 0)

      let restarted = try StoreServer(directory: data, fsync: fsync)
      let values = try restarted.retained(matching: "f.>")
      #expect(values["f.kept"] == "1")
      #expect(values["f.after"] == "4")
      #expect(values["f.other"] == nil)
      #expect(values["f.plain"] == nil)
      restarted.terminate()
    }
  }
}
