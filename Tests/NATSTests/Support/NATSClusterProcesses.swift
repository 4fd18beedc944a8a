import Foundation
import TestSupport
import XCTest

/// Three `nats-server` processes with JetStream, clustered on loopback with free ports and
/// their own store directories; every one is killed and reaped when the test ends.
final class NATSClusterProcesses {
  /// The servers, `n1` to `n3`.
  let nodes: [NATSServerProcess]

  /// Starts the cluster and waits until every node accepts clients.
  ///
  /// A free port can be taken by another process before a node binds it, and the node then
  /// exits at once: the whole cluster is started again on other ports, up to three times.
  init(_ test: XCTestCase) throws {
    try RequiredTool.require(
      NATSServerProcess.isInstalled, "nats-server (apt-get install nats-server)")
    var failure = ""
    for _ in 0..<3 {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("nats-cluster-\(UUID().uuidString)")
      test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
      let nodes = try Self.start(in: directory, test)
      if let silent = nodes.first(where: { !$0.waitUntilAccepting(timeout: .seconds(10)) }) {
        failure = silent.log
        for node in nodes { node.stop() }
        continue
      }
      self.nodes = nodes
      return
    }
    throw NATSTestFailure("a cluster node did not start three times; the last log:\n\(failure)")
  }

  /// Starts three clustered nodes on six distinct free ports.
  private static func start(in directory: URL, _ test: XCTestCase) throws -> [NATSServerProcess] {
    var ports: [UInt16] = []
    while ports.count < 6 {
      let port = try freeLoopbackPort()
      if !ports.contains(port) { ports.append(port) }
    }
    let (clientPorts, routePorts) = (ports[0..<3], Array(ports[3..<6]))
    let routes = routePorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
    return try (0..<3).map { index in
      let name = "n\(index + 1)"
      let configuration = """
        server_name: \(name)
        listen: 127.0.0.1:{port}
        jetstream { store_dir: "{dir}/store-\(name)", max_memory_store: 64MB, max_file_store: 256MB }
        cluster { name: obs, listen: 127.0.0.1:\(routePorts[index]), routes: [\(routes)] }
        """
      let node = try NATSServerProcess(
        name: name, port: clientPorts[clientPorts.startIndex + index],
        configuration: configuration, directory: directory)
      test.addTeardownBlock { node.stop() }
      return node
    }
  }

  deinit {
    for node in nodes { node.stop() }
  }
}
