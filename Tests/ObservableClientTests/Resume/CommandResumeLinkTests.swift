import Foundation
import Glibc
import Locking
import ObservableClient
import TestSupport
import Testing

/// `observable sub` in a network namespace of its own whose link the test takes down again and
/// again while values flow: no FIN and no reset reach either side, so only the keep-alive ping
/// can find the connection gone. Each time the client reconnects once the link is back and
/// resumes from the server's history: one node's, or a cluster's in JetStream.
@Suite(
  "observable sub across vanished links", .serialized, .timeLimit(.minutes(2)),
  .enabled(
    if: RequiredTool.runs(TestNetwork.isAvailable), "needs root and ip to make network namespaces"
  ))
struct CommandResumeLinkTests {
  static let topics = (0..<10).map { "r.\($0)" }
  static let cuts = 5

  @Test func everyValueOnceAndInOrderAcrossLinkCuts() async throws {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork()
    let socket = temporarySocketPath("sub-link")
    defer { unlink(socket) }
    let server = try ServerProcess(
      arguments: [
        "--listen", "\(network.serverAddress):7070", "--listen", "unix:\(socket)",
        "--history", "10000",
      ], launcher: network.launcher(in: network.serverNamespace))
    #expect(
      await eventually(timeout: .seconds(10)) { (try? LineClient(.unix(path: socket))) != nil })
    try await Self.subscribeAcrossCuts(
      network, server: "\(network.serverAddress):7070", publisher: "unix:\(socket)",
      context: { server.output })
  }

  /// The same through a cluster: the subscriber's node is behind the link and the values are
  /// published on the other node, so each resume reads JetStream's history.
  @Test func clusteredEveryValueOnceAndInOrderAcrossLinkCuts() async throws {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork(server: .testProcess)
    let nodes = try JetStreamNodes(history: 10_000, alsoOn: network.serverAddress)
    try nodes.point(at: 1)
    try await Self.subscribeAcrossCuts(
      network, server: "\(network.serverAddress):\(nodes.ports[0])",
      publisher: "unix:\(nodes.link)",
      context: { nodes.nodes.map(\.output).joined(separator: "\n") })
  }

  /// Runs `observable sub` against `server` from the link's client end, publishes through
  /// `publisher` (which no cut reaches) while the test cuts the link ``cuts`` times, and
  /// expects every value once and in order, with no loss reported.
  static func subscribeAcrossCuts(
    _ network: TestNetwork, server: String, publisher address: String,
    context: () -> String
  ) async throws {
    let sub = try ChildProcess(
      "observable",
      ["sub", "r.*", "--json", "--server", server, "--keep-alive", "1"],
      launcher: network.launcher(in: network.clientNamespace))
    defer { _ = sub.waitForExit(timeout: .seconds(1)) }
    defer { sub.signal(SIGKILL) }
    let publisher = try ObservableClient(address, configuration: .quiet())
    try await publisher.connect()
    defer { publisher.close() }
    // Values go out only once the subscription is in place: a marker shows it is.
    for _ in 0..<100 where !sub.stdout.contains("r.ready") {
      try await publisher.publish("r.ready", 0)
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(sub.stdout.contains("r.ready"), "\(sub.stderr) \(context())")

    let stop = Locked(false)
    let publishing = Task {
      var rounds = 0
      while !stop.withLock({ $0 }) {
        for topic in topics { try await publisher.publish(topic, rounds) }
        rounds += 1
        try await Task.sleep(for: .milliseconds(10))
      }
      return rounds
    }
    for cut in 1...cuts {
      try await Task.sleep(for: .milliseconds(Int.random(in: 200...800)))
      try network.cutClientLink()
      let found = await eventually(timeout: .seconds(10)) {
        sub.stderr.components(separatedBy: "; reconnecting").count > cut
      }
      try network.restoreClientLink()
      #expect(found, "cut \(cut) was not found: \(sub.stderr)")
    }
    stop.withLock { $0 = true }
    let rounds = try await publishing.value
    let expected = topics.count * rounds
    let arrived = await eventually(timeout: .seconds(30)) {
      Self.values(sub.stdout).values.map(\.count).reduce(0, +) >= expected
    }
    #expect(arrived, "\(sub.stderr)")
    let values = Self.values(sub.stdout)
    for topic in topics {
      #expect(values[topic] == Array(0..<rounds), "\(topic): \(values[topic] ?? [])")
    }
    #expect(!sub.stderr.contains("values lost"), "\(sub.stderr)")
  }

  /// The values of each `r.N` topic in `output`'s delivery lines, in the order printed.
  static func values(_ output: String) -> [String: [Int]] {
    var values: [String: [Int]] = [:]
    for line in output.split(separator: "\n") {
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let stream = object["stream"] as? String, stream != "r.ready",
        let value = object["value"] as? Int
      else { continue }
      values[stream, default: []].append(value)
    }
    return values
  }
}
