import Glibc
import ObservablePOSIX

/// The listening sockets a server serves: bound from its configuration, or handed over by the
/// service manager.
struct ListeningSockets {
  /// One listening socket.
  struct Entry {
    let descriptor: Int32
    /// What it listens on, for logs: the address with its port resolved, or systemd's name.
    let label: String
    /// The socket file to remove at shutdown, for a Unix socket the server bound itself.
    let unixPath: String?
    /// Whether it serves HTTP (`--http`, or an inherited socket named `http` or `https`).
    var servesHTTP = false
    /// Whether its clients speak TLS (`tls://`, `https://`, or an inherited socket named
    /// `tls` or `https`).
    var servesTLS = false
  }

  /// Every socket, in the configuration's order.
  private(set) var entries: [Entry] = []
  /// The addresses bound, with port 0 resolved to the port chosen; empty for inherited sockets.
  private(set) var served: [ListenAddress] = []
  /// The HTTP addresses bound, resolved the same way.
  private(set) var servedHTTP: [ListenAddress] = []
  /// The TLS addresses bound (`tls://`), resolved the same way.
  private(set) var servedTLS: [ListenAddress] = []
  /// The HTTPS addresses bound (`https://`), resolved the same way.
  private(set) var servedHTTPS: [ListenAddress] = []

  /// Every descriptor, for closing them when the start fails.
  var descriptors: [Int32] { entries.map(\.descriptor) }

  /// Binds every configured address, or takes the inherited listeners when there are any;
  /// closes what it opened before it throws.
  static func open(_ configuration: ServerConfiguration) throws -> ListeningSockets {
    var sockets = ListeningSockets()
    guard configuration.inheritedListeners.isEmpty else {
      sockets.entries = configuration.inheritedListeners.map {
        Entry(
          descriptor: $0.descriptor,
          label: "\($0.name) (fd \($0.descriptor) from the service manager)", unixPath: nil,
          servesHTTP: $0.name == "http" || $0.name == "https",
          servesTLS: $0.name == "tls" || $0.name == "https")
      }
      return sockets
    }
    do {
      let addresses =
        configuration.listen.map { ($0, false, false) }
        + configuration.tlsListen.map { ($0, false, true) }
        + configuration.httpListen.map { ($0, true, false) }
        + configuration.httpsListen.map { ($0, true, true) }
      for (address, http, tls) in addresses {
        if case .unix(let path) = address { try UnixSocketPath.prepare(path) }
        let descriptor = try SocketCalls.listen(on: address, backlog: 1024)
        var served = address
        var unixPath: String?
        switch address {
        case .unix(let path): unixPath = path
        case .tcp(let host, _):
          served = .tcp(host: host, port: SocketCalls.boundPort(descriptor) ?? 0)
        }
        // As the flags spell them: `tls://` and `https://` tell TLS listeners apart in logs.
        let scheme = ["", "tls://", "http ", "https://"][(http ? 2 : 0) + (tls ? 1 : 0)]
        sockets.entries.append(
          Entry(
            descriptor: descriptor, label: scheme + served.description, unixPath: unixPath,
            servesHTTP: http, servesTLS: tls))
        switch (http, tls) {
        case (false, false): sockets.served.append(served)
        case (false, true): sockets.servedTLS.append(served)
        case (true, false): sockets.servedHTTP.append(served)
        case (true, true): sockets.servedHTTPS.append(served)
        }
      }
    } catch {
      for entry in sockets.entries {
        close(entry.descriptor)
        if let path = entry.unixPath { unlink(path) }
      }
      throw error
    }
    return sockets
  }
}
