import Glibc
import Locking

/// A loopback TCP port that was free a moment ago, for a process a test starts on it (a server,
/// a `nats-server`, a cluster node).
///
/// Chosen below the kernel's ephemeral range (32768 and up), so no socket bound to port 0
/// meanwhile (a test's in-process server, a client's own end) can be given the same port
/// between this check and the process binding it. Another process can still take it: callers
/// that start a process on it retry on another port when it does not come up.
///
/// No port is returned twice in one test process: tests run side by side, and a fixture asks
/// for several ports before it starts anything on them, so a port handed out but not yet bound
/// is still free to a second `bind` here.
public func freeLoopbackPort() throws -> UInt16 {
  for _ in 0..<100 {
    let port = UInt16.random(in: 20_000...32_000)
    guard handedOutPorts.withLock({ $0.insert(port).inserted }) else { continue }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError(call: "socket", code: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    if bound { return port }
  }
  throw TestSupportError("no free loopback port below the ephemeral range")
}

/// Every port `freeLoopbackPort()` has returned in this process.
private let handedOutPorts = Locked(Set<UInt16>())

/// A fresh path for a Unix socket in `/tmp`, unique to this process and call; short enough for
/// `sun_path` (108 bytes), which a path under `$TMPDIR` may not be.
public func temporarySocketPath(_ name: String) -> String {
  "/tmp/os-test-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max)).sock"
}
