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
    /// Whether it serves HTTP (`--http`, or an inherited socket named `http`).
    var servesHTTP = false
  }

  /// Every socket, in the configuration's order.
  private(set) var entries: [Entry] = []
  /// The addresses bound, with port 0 resolved to the port chosen; empty for inherited sockets.
  private(set) var served: [ListenAddress] = []
  /// The HTTP addresses bound, resolved the same way.
  private(set) var servedHTTP: [ListenAddress] = []

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
          servesHTTP: $0.name == "http")
      }
      return sockets
    }
    do {
      let addresses =
        configuration.listen.map { ($0, false) } + configuration.httpListen.map { ($0, true) }
      for (address, http) in addresses {
        if case .unix(let path) = address { try UnixSocketPath.prepare(path) }
        let descriptor = try SocketCalls.listen(on: address, backlog: 1024)
        var served = address
        var unixPath: String?
        switch address {
        case .unix(let path): unixPath = path
        case .tcp(let host, _):
          served = .tcp(host: host, port: SocketCalls.boundPort(descriptor) ?? 0)
        }
        sockets.entries.append(
          Entry(
            descriptor: descriptor, label: (http ? "http " : "") + served.description,
            unixPath: unixPath, servesHTTP: http))
        if http { sockets.servedHTTP.append(served) } else { sockets.served.append(served) }
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
