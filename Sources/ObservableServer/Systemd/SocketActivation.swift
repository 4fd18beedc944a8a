import CSystemd

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Takes over listening sockets passed by systemd socket activation (`sd_listen_fds(3)`).
///
/// The environment is inspected directly before libsystemd is needed, so a server started
/// without activation never depends on libsystemd.so.0 being installed; only a process that
/// really was handed sockets requires it.
enum SocketActivation {
  /// Claims the sockets passed to this process, in the order of the `.socket` unit.
  ///
  /// Call once, early, and before spawning child processes: the activation variables are
  /// removed from the environment (as `sd_listen_fds` does with `unset_environment`) so
  /// `--exec` children do not mistake them for their own.
  ///
  /// - Returns: `nil` when the process was not socket-activated: `LISTEN_FDS` is unset, or
  ///   `LISTEN_PID` is missing or names another process (the variables were inherited from
  ///   an activated ancestor), or no descriptors were passed.
  /// - Throws: ``SocketActivationError`` when sockets were passed but cannot be served; any
  ///   descriptors already taken are closed first, since nobody else would close them.
  static func takeSockets() throws(SocketActivationError) -> [InheritedListener]? {
    guard getenv("LISTEN_FDS") != nil else { return nil }
    if !isAddressedToThisProcess() {
      removeActivationEnvironment()
      return nil
    }
    guard observable_systemd_available() != 0 else {
      let reason = observable_systemd_load_error().map { String(cString: $0) } ?? "unknown error"
      throw .libraryUnavailable(reason: reason)
    }
    let sockets = try receiveDescriptors()
    guard !sockets.isEmpty else { return nil }
    do {
      for socket in sockets {
        try adopt(socket)
      }
    } catch {
      for socket in sockets {
        close(socket.descriptor)
      }
      throw error
    }
    return sockets
  }

  /// Checks that `socket` can be served and prepares it for the event loop.
  ///
  /// Rejecting anything but a listening stream socket turns a misconfigured unit (datagram,
  /// `Accept=yes`, a stray file) into a clear startup error instead of a failing accept loop.
  static func adopt(_ socket: InheritedListener) throws(SocketActivationError) {
    let check = observable_sd_is_socket(socket.descriptor, AF_UNSPEC, streamSocketType, 1)
    if check < 0 {
      throw .descriptorFailed(
        fd: socket.descriptor, name: socket.name, operation: "sd_is_socket", errno: -check)
    }
    guard check > 0 else {
      throw .notListeningStreamSocket(fd: socket.descriptor, name: socket.name)
    }
    // Close-on-exec keeps the listening sockets out of --exec children, which would otherwise
    // hold the port open after the server exits.
    try addFlag(FD_CLOEXEC, get: F_GETFD, set: F_SETFD, to: socket, operation: "FD_CLOEXEC")
    try addFlag(O_NONBLOCK, get: F_GETFL, set: F_SETFL, to: socket, operation: "O_NONBLOCK")
  }

  /// Mirrors `sd_listen_fds`: variables without a matching `LISTEN_PID` belong to another
  /// process. A malformed `LISTEN_PID` is left to libsystemd, which reports it as invalid.
  private static func isAddressedToThisProcess() -> Bool {
    guard let text = getenv("LISTEN_PID") else { return false }
    guard let pid = pid_t(String(cString: text)) else { return true }
    return pid == getpid()
  }

  /// Drops the activation variables exactly as `sd_listen_fds(1)` would have done.
  private static func removeActivationEnvironment() {
    unsetenv("LISTEN_PID")
    unsetenv("LISTEN_FDS")
    unsetenv("LISTEN_FDNAMES")
  }

  /// Asks libsystemd for the passed descriptors and their names, freeing its allocations.
  private static func receiveDescriptors() throws(SocketActivationError) -> [InheritedListener] {
    var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    let count = observable_sd_listen_fds_with_names(1, &names)
    guard count >= 0 else { throw .environmentInvalid(errno: -count) }
    defer {
      if let names {
        for index in 0..<Int(count) {
          free(names[index])
        }
        free(names)
      }
    }
    return (0..<count).map { index in
      let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
      return InheritedListener(descriptor: OBSERVABLE_SD_LISTEN_FDS_START + index, name: name)
    }
  }

  /// Sets one descriptor flag or status flag, keeping the others as they are.
  private static func addFlag(
    _ flag: Int32, get: Int32, set: Int32, to socket: InheritedListener, operation: String
  ) throws(SocketActivationError) {
    let current = fcntl(socket.descriptor, get)
    guard current >= 0, fcntl(socket.descriptor, set, current | flag) >= 0 else {
      throw .descriptorFailed(
        fd: socket.descriptor, name: socket.name, operation: operation, errno: errno)
    }
  }

  /// `SOCK_STREAM` as the plain integer the C API takes; Glibc imports it as an enum.
  private static var streamSocketType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }
}
