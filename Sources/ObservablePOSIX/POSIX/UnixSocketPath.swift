import Glibc

/// Clears the way for binding a Unix socket path.
package enum UnixSocketPath {
  /// Removes a stale socket file at `path` left by a server that died; refuses when another
  /// server still answers there or when the file is not a socket.
  package static func prepare(_ path: String) throws(SystemError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      throw SystemError(call: "bind(\(path)): not a socket file", code: EEXIST)
    }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard probe >= 0 else { throw SystemError(call: "socket", code: errno) }
    defer { close(probe) }
    let address = try SocketAddress(.unix(path: path))
    let answered = try address.withSockaddr { pointer, length in
      connect(probe, pointer, length) == 0
    }
    guard !answered else {
      throw SystemError(call: "bind(\(path)): a server is listening", code: EADDRINUSE)
    }
    unlink(path)
  }
}
