import Foundation
import TestSupport

/// Two `observable-server` nodes with `--history`, clustered through one `nats-server` with
/// JetStream, each on TCP and on a Unix socket of its own, and a symbolic link that points at
/// one node's socket or the other's: a client given the link's path reaches, on each
/// connection it makes, whichever node the link names then. Every process is killed, and the
/// directory removed, when the value goes away.
final class JetStreamNodes: Sendable {
  /// The NATS server, a child process killed with the value.
  private let nats: ChildProcess
  /// The nodes, by index.
  let nodes: [ServerProcess]
  /// Their TCP ports, by index.
  let ports: [UInt16]
  /// The path of the link a client connects to.
  let link: String
  private let directory: URL

  /// Starts the NATS server and two nodes keeping `history` values per topic, and waits until
  /// both can answer a request on their history; the link points at node 0. With `alsoOn`,
  /// an address of this namespace (a ``TestNetwork`` server end), each node listens there
  /// too, on its TCP port.
  init(history: Int, alsoOn address: String? = nil) throws {
    try RequiredTool.require(
      ChildProcess.isInstalled("nats-server"), "nats-server (apt-get install nats-server)")
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("obs-nodes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    link = directory.appendingPathComponent("node.sock").path
    let natsPort = try freeLoopbackPort()
    nats = try ChildProcess(
      tool: "nats-server",
      ["-js", "-a", "127.0.0.1", "-p", "\(natsPort)", "-sd", directory.path + "/store"])
    guard
      eventually(
        timeout: .seconds(10), { (try? LineClient(port: natsPort, readGreeting: false)) != nil })
    else { throw TestSupportError("nats-server did not start:\n\(nats.stderr)") }
    ports = try (0..<2).map { _ in try freeLoopbackPort() }
    nodes = try (0..<2).map { [directory, ports] index in
      try ServerProcess(
        port: ports[index],
        arguments: [
          "--listen", "unix:\(directory.path)/node\(index).sock",
          "--cluster", "nats://127.0.0.1:\(natsPort)", "--cluster-replicas", "1",
          "--history", "\(history)",
        ] + (address.map { ["--listen", "\($0):\(ports[index])"] } ?? []))
    }
    for (node, port) in zip(nodes, ports) {
      // Ready once the node has read the stream's epoch: a `history` request is answered.
      let ready = eventually(timeout: .seconds(20)) {
        let reply = try? LineClient(port: port).request(
          #"{"op":"history","stream":"ready","limit":1}"#)
        return reply?["ok"] as? Bool == true
      }
      guard ready else { throw TestSupportError("no history on the node:\n\(node.output)") }
    }
    try point(at: 0)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Points the link at node `index`'s socket; connections made from now on reach it.
  func point(at index: Int) throws {
    // A new link renamed over the old one, so that a connect never finds no link at all.
    let next = link + ".next"
    try? FileManager.default.removeItem(atPath: next)
    try FileManager.default.createSymbolicLink(
      atPath: next, withDestinationPath: directory.path + "/node\(index).sock")
    guard rename(next, link) == 0 else { throw TestSupportError("rename: errno \(errno)") }
  }
}
