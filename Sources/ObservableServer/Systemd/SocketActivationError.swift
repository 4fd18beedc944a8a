#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the sockets passed by systemd socket activation cannot be used.
///
/// Each case means the service manager asked this process to serve sockets it cannot take
/// over, so the server should stop rather than silently listen elsewhere.
enum SocketActivationError: Error, Equatable, CustomStringConvertible {
  /// `LISTEN_FDS` is set for this process, but libsystemd could not be loaded.
  case libraryUnavailable(reason: String)
  /// libsystemd rejected the activation environment (for instance a malformed `LISTEN_FDS`).
  case environmentInvalid(errno: Int32)
  /// A passed descriptor is not a listening stream socket, so the unit is misconfigured
  /// (for instance `ListenDatagram=` or `Accept=yes`).
  case notListeningStreamSocket(fd: Int32, name: String)
  /// Inspecting or configuring a passed descriptor failed.
  case descriptorFailed(fd: Int32, name: String, operation: String, errno: Int32)

  var description: String {
    switch self {
    case .libraryUnavailable(let reason):
      "LISTEN_FDS is set but libsystemd.so.0 could not be loaded: \(reason); "
        + "install libsystemd0 or start without socket activation"
    case .environmentInvalid(let errno):
      "socket activation environment (LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES) is invalid: "
        + Self.explain(errno)
    case .notListeningStreamSocket(let fd, let name):
      "file descriptor \(fd) (\"\(name)\") passed by socket activation is not a listening "
        + "stream socket; use ListenStream= without Accept=yes in the .socket unit"
    case .descriptorFailed(let fd, let name, let operation, let errno):
      "\(operation) failed on file descriptor \(fd) (\"\(name)\") passed by socket "
        + "activation: \(Self.explain(errno))"
    }
  }

  /// Renders an errno both as the C library's text and as a number, because the number is
  /// what people search for.
  private static func explain(_ errno: Int32) -> String {
    "\(String(cString: strerror(errno))) (errno \(errno))"
  }
}
