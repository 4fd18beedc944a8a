import Foundation
import TestSupport
import Testing

/// The subscriber of ``HistoryResumeRaceTests`` in a network namespace of its own, cut off
/// half the time by a reset and half the time by its link going down: no FIN and no RST reach
/// the server, the subscriber reads what its kernel still holds, gives the connection up and
/// resumes with `since` once the link is back. The publisher writes over a Unix socket, which
/// no link cut reaches.
@Suite(
  "Resume across vanished links", .serialized, .timeLimit(.minutes(3)),
  .enabled(
    if: RequiredTool.runs(TestNetwork.isAvailable), "needs root and ip to make network namespaces"
  ))
struct HistoryResumeLinkTests {
  @Test(
    "every value once and in order when history is big enough",
    arguments: [("tcp", "exact"), ("tcp", "pattern"), ("ws", "pattern")])
  func everyValueOnceInOrder(_ transport: String, _ mode: String) throws {
    // A cut link is given up after 0.1 s of silence, not the script's 0.3 s: what the kernel
    // held is read in microseconds, so the other 0.2 s of each of the 19 cuts were only waiting
    // (with fewer values or shorter connections, the run had too few cuts for the checks below).
    let run = try resume(
      transport, mode, history: 2000, values: 400, extra: ["--silence", "0.1"])
    #expect(run["received"] as? Int == 20 * 400, "\(run)")
    #expect((run["link_cuts"] as? Int ?? 0) >= 10, "\(run)")
    #expect((run["connections"] as? Int ?? 0) >= 30, "\(run)")
    #expect(run["recovered_false"] as? Int == 0, "\(run)")
    #expect((run["silent_gaps"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["duplicates"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["disorder"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["epochs"] as? [String])?.count == 1, "\(run)")
  }

  @Test("a history too small says recovered:false, and never loses silently")
  func tooSmallIsReported() throws {
    // A publisher paced to last a few seconds, so that some cuts fall while it still writes.
    let run = try resume("tcp", "pattern", history: 2, values: 400, extra: ["--pace", "1"])
    #expect((run["link_cuts"] as? Int ?? 0) >= 3, "\(run)")
    #expect((run["recovered_false"] as? Int ?? 0) > 0, "\(run)")
    #expect((run["reported_gaps"] as? Int ?? 0) > 0, "\(run)")
    #expect((run["silent_gaps"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["duplicates"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["disorder"] as? [Any])?.isEmpty == true, "\(run)")
  }

  private func resume(
    _ transport: String, _ mode: String, history: Int, values: Int, extra: [String] = []
  ) throws -> [String: Any] {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork()
    let server = try NamespacedServer(
      network, name: "resume-link", deadPeerTimeout: 5,
      arguments: ["--history", "\(history)", "--http", "\(network.serverAddress):8080"])
    let run = try HistoryResumeScript.run(
      [
        "--host", network.serverAddress, "--port", "7070", "--http-port", "8080",
        "--publisher-unix", server.socketPath, "--transport", transport, "--mode", mode,
        "--values", "\(values)", "--link-down", network.clientLinkCommand("down"),
        "--link-up", network.clientLinkCommand("up"), "--pause", "0.05",
        "--receive-buffer", "4096",
      ] + extra, timeout: .seconds(120),
      launcher: network.launcher(in: network.clientNamespace))
    withExtendedLifetime(server) {}
    return run
  }
}
