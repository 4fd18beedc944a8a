#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test-owned stand-in for systemd's notification socket: an `AF_UNIX` datagram socket
/// bound to a fresh path that tests put into `NOTIFY_SOCKET`.
final class NotificationReceiver {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The socket's path; short and under /tmp because `sun_path` holds only 108 bytes.
  let path: String
  private let fd: Int32

  init() throws {
    let path = "/tmp/obs-notify-\(getpid())-\(UInt32.random(in: .min ... .max)).sock"
    // Bound before any stored property is set: a throw from here on would run deinit, which
    // closes `fd` too, and a second close can hit a descriptor another thread has just opened.
    fd = try Self.boundSocket(at: path)
    self.path = path
  }

  /// A datagram socket bound to `path`; closed again if the bind fails.
  private static func boundSocket(at path: String) throws -> Int32 {
    #if canImport(Glibc)
      let datagram = Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue)
    #else
      let datagram = SOCK_DGRAM
    #endif
    let fd = socket(AF_UNIX, datagram, 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: pathBytes)
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else {
      let code = errno
      close(fd)
      throw Failure(description: "bind \(path): errno \(code)")
    }
    return fd
  }

  deinit {
    close(fd)
    unlink(path)
  }

  /// The next datagram as text, or `nil` if none arrives within `timeout`; bounded so a
  /// missing notification fails the test instead of hanging it.
  func receive(timeout: Duration) -> String? {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds =
      Int32(timeout.components.seconds * 1_000)
      + Int32(timeout.components.attoseconds / 1_000_000_000_000_000)
    guard poll(&entry, 1, milliseconds) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let count = recv(fd, &buffer, buffer.count, 0)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// Discards whatever has already arrived.
  func drain() {
    while receive(timeout: .zero) != nil {}
  }
}
