import Foundation
import Glibc
import TestSupport

/// The server as a process in a ``TestNetwork``'s server namespace: port 7070 on the veth
/// link for the remote client, and a Unix socket for the test's own clients, which no link
/// cut reaches.
final class NamespacedServer {
  let process: ServerProcess
  /// The Unix socket the test's own clients connect to.
  let socketPath: String

  /// Starts the server with `--dead-peer-timeout` of `deadPeerTimeout` seconds and `arguments`
  /// besides, and waits until its socket answers.
  init(
    _ network: TestNetwork, name: String, deadPeerTimeout: Int, arguments: [String] = []
  ) throws {
    socketPath = temporarySocketPath(name)
    process = try ServerProcess(
      arguments: [
        "--listen", "\(network.serverAddress):7070", "--listen", "unix:\(socketPath)",
        "--dead-peer-timeout", "\(deadPeerTimeout)", "--log-level", "debug",
      ] + arguments, launcher: network.launcher(in: network.serverNamespace))
    let path = socketPath
    guard eventually({ (try? LineClient(.unix(path: path))) != nil }) else {
      throw TestSupportError("the server did not answer on \(path):\n\(process.output)")
    }
  }

  deinit { unlink(socketPath) }

  /// A new client on the Unix socket.
  func localClient() throws -> LineClient { try LineClient(.unix(path: socketPath)) }
}

/// `nc` inside the client namespace, connected to the server's port 7070: it sends `lines`,
/// then reads whatever comes until the test ends.
final class RemoteClient {
  private let process = Process()
  private let input = Pipe()

  init(_ network: TestNetwork, lines: [String]) throws {
    let launcher = network.launcher(in: network.clientNamespace)
    process.executableURL = URL(fileURLWithPath: launcher[0])
    process.arguments = Array(launcher.dropFirst()) + ["nc", network.serverAddress, "7070"]
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
  }

  deinit { end() }

  /// Kills `nc`; its kernel closes the connection (a FIN) if the link lets it through.
  func end() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
