import Glibc
import TestSupport

@testable import ObservableClient

/// Ends a client's connection at a moment the test picks, the two ways a network ends one: a
/// reset from the server's side (`ss -K` destroys the server's socket, which sends a RST), or
/// the client's own socket shut down under it.
struct ConnectionCutter {
  let client: ObservableClient

  /// How many times the client has connected, from its connection states.
  let connections: Received<ConnectionState>

  /// Watches `client`'s connection states from now on; unsubscribed when `client` closes.
  init(_ client: ObservableClient) {
    self.client = client
    let connections = Received<ConnectionState>()
    _ = client.connectionState.subscribe { if $0 == .connected { connections.append($0) } }
    self.connections = connections
  }

  /// Connections made so far.
  var connectionCount: Int { connections.count }

  /// Resets the connection from the server's side; returns whether there was one to reset.
  func resetFromServer() throws -> Bool {
    guard let localPort = localPort() else { return false }
    // The server's socket is the one whose peer port is the client's local port.
    let ss = try ChildProcess(
      tool: "ss", ["-K", "-tn", "state", "established", "( dport = :\(localPort) )"])
    return ss.exitStatus() == 0
  }

  /// Shuts the client's socket down under it, as a network failure would.
  func shutDownClientSide() {
    client.core.writer.withLock { $0?.shutDown() }
  }

  /// The local port of the client's current connection, if it has one.
  private func localPort() -> UInt16? {
    client.core.writer.withLock { writer -> UInt16? in
      guard let fd = writer?.fd else { return nil }
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let status = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
      }
      return status == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }
  }
}
