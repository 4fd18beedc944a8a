import Logging
import ObservablePOSIX
import ObservableServer

/// An `ObservableServer` started in the test's own process on a free loopback port, with two
/// event loops and no logging: the start the server's tests and the client's tests share.
///
/// A target of its own beside TestSupport, which stays free of server code so that the test
/// targets of the lower modules (WebSocket, TLS, NATS) do not build the server.
public enum InProcessServer {
  /// Starts a server on 127.0.0.1 port 0 after `configure` has changed its configuration.
  ///
  /// - Returns: the server, the addresses it listens on, and the port of the first TCP one
  ///   (0 when it has none).
  public static func start(
    _ configure: (inout ServerConfiguration) -> Void
  ) throws -> (server: ObservableServer, addresses: [ListenAddress], port: UInt16) {
    var configuration = ServerConfiguration()
    configuration.listen = [.tcp(host: "127.0.0.1", port: 0)]
    configuration.eventLoopCount = 2
    configure(&configuration)
    let server = ObservableServer(
      configuration: configuration, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    let addresses = try server.start()
    let port =
      addresses.lazy.compactMap { address -> UInt16? in
        if case .tcp(_, let port) = address { return port }
        return nil
      }.first ?? 0
    return (server, addresses, port)
  }
}
