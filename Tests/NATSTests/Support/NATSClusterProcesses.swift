import Foundation
import XCTest

/// Three `nats-server` processes with JetStream, clustered on loopback with free ports and
/// their own store directories; every one is killed and reaped when the test ends.
final class NATSClusterProcesses {
  /// The servers, `n1` to `n3`.
  let nodes: [NATSServerProcess]

  /// Starts the cluster and waits until every node accepts clients.
  init(_ test: XCTestCase) throws {
    try XCTSkipUnless(
      NATSServerProcess.isInstalled, "nats-server is not installed (apt-get install nats-server)")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("nats-cluster-\(UUID().uuidString)")
    test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let clientPorts = try (0..<3).map { _ in try freeLoopbackPort() }
    let routePorts = try (0..<3).map { _ in try freeLoopbackPort() }
    let routes = routePorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
    var nodes: [NATSServerProcess] = []
    for index in 0..<3 {
      let name = "n\(index + 1)"
      let configuration = """
        server_name: \(name)
        listen: 127.0.0.1:{port}
        jetstream { store_dir: "{dir}/store-\(name)", max_memory_store: 64MB, max_file_store: 256MB }
        cluster { name: obs, listen: 127.0.0.1:\(routePorts[index]), routes: [\(routes)] }
        """
      let node = try NATSServerProcess(
        name: name, port: clientPorts[index], configuration: configuration, directory: directory)
      test.addTeardownBlock { node.stop() }
      nodes.append(node)
    }
    self.nodes = nodes
    for node in nodes where !node.waitUntilAccepting(timeout: .seconds(10)) {
      throw NATSTestFailure("a cluster node did not start:\n\(node.log)")
    }
  }

  deinit {
    for node in nodes { node.stop() }
  }
}
