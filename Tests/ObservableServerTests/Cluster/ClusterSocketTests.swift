import Glibc
import TestSupport
import XCTest

@testable import ObservableCluster
@testable import ObservablePOSIX
@testable import ObservableServer

/// The NATS client socket tries every address of a name in turn, off the loop.
final class ClusterSocketTests: XCTestCase {
  func testConnectsToTheSecondAddressWhenTheFirstRefuses() throws {
    let listener = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 8)
    defer { close(listener) }
    let port = try XCTUnwrap(SocketCalls.boundPort(listener))
    // As `localhost` resolves where /etc/hosts lists `::1` first: nothing listens on the
    // IPv6 loopback at this port, so the first address refuses.
    let addresses =
      try SocketAddress.resolve(host: "::1", port: port)
      + SocketAddress.resolve(host: "127.0.0.1", port: port)
    XCTAssertEqual(addresses.map(\.family), [AF_INET6, AF_INET])
    let fd = try ClusterSocket.connect(to: addresses, timeout: .seconds(2))
    defer { close(fd) }
    XCTAssertTrue(eventually(timeout: .seconds(5)) { (try? SocketCalls.accept(listener)) != nil })
  }

  func testThrowsTheLastErrorWhenNoAddressAnswers() throws {
    let port = try freeLoopbackPort()
    let addresses =
      try SocketAddress.resolve(host: "::1", port: port)
      + SocketAddress.resolve(host: "127.0.0.1", port: port)
    XCTAssertThrowsError(try ClusterSocket.connect(to: addresses, timeout: .seconds(2))) {
      XCTAssertEqual(($0 as? SystemError)?.code, ECONNREFUSED, "\($0)")
    }
  }

  func testNodeJoinsThroughAName() throws {
    let nats = try NATSClusterFixture(self)
    // ClusterNode waits for the retained stream, which needs the whole handshake.
    let node = try ClusterNode(self, urls: ["nats://localhost:\(nats.clientPorts[0])"])
    let stats = try node.client().clusterStats()
    XCTAssertEqual(stats["connected"] as? Bool, true, "\(stats)")
  }
}
