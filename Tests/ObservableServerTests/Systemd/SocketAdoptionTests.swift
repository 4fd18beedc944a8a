import Testing

@testable import ObservableServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks and preparation applied to each passed descriptor, run on descriptors the
/// test creates itself (socket activation proper cannot run inside the test process).
@Suite struct SocketAdoptionTests {
  #if canImport(Glibc)
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let datagram = Int32(SOCK_DGRAM.rawValue)
  #else
    static let stream = SOCK_STREAM
    static let datagram = SOCK_DGRAM
  #endif

  /// A loopback TCP socket on an ephemeral port, listening when asked.
  static func tcpSocket(listening: Bool) throws -> Int32 {
    let fd = socket(AF_INET, stream, 0)
    try #require(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(bound == 0)
    if listening {
      try #require(listen(fd, 8) == 0)
    }
    return fd
  }

  @Test func listeningStreamSocketBecomesNonBlockingAndCloseOnExec() throws {
    let fd = try Self.tcpSocket(listening: true)
    defer { close(fd) }
    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC == 0)
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
    try SocketActivation.adopt(InheritedListener(descriptor: fd, name: "tcp"))
    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
  }

  @Test func listeningUnixSocketIsAccepted() throws {
    let fd = socket(AF_UNIX, Self.stream, 0)
    try #require(fd >= 0)
    defer { close(fd) }
    // An autobound abstract address: no file to clean up.
    var family = sa_family_t(AF_UNIX)
    let bound = withUnsafePointer(to: &family) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sa_family_t>.size))
      }
    }
    try #require(bound == 0)
    try #require(listen(fd, 8) == 0)
    try SocketActivation.adopt(InheritedListener(descriptor: fd, name: "unix"))
  }

  @Test func nonListeningStreamSocketIsRejectedByNumberAndName() throws {
    let fd = try Self.tcpSocket(listening: false)
    defer { close(fd) }
    let error = #expect(throws: SocketActivationError.self) {
      try SocketActivation.adopt(InheritedListener(descriptor: fd, name: "tcp"))
    }
    #expect(error == .notListeningStreamSocket(fd: fd, name: "tcp"))
    #expect(error?.description.contains("file descriptor \(fd) (\"tcp\")") == true)
  }

  @Test func datagramSocketIsRejected() throws {
    let fd = socket(AF_INET, Self.datagram, 0)
    try #require(fd >= 0)
    defer { close(fd) }
    #expect(throws: SocketActivationError.notListeningStreamSocket(fd: fd, name: "udp")) {
      try SocketActivation.adopt(InheritedListener(descriptor: fd, name: "udp"))
    }
  }

  @Test func pipeIsRejected() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    #expect(throws: SocketActivationError.notListeningStreamSocket(fd: ends[0], name: "x")) {
      try SocketActivation.adopt(InheritedListener(descriptor: ends[0], name: "x"))
    }
  }

  @Test func invalidDescriptorReportsTheErrno() {
    // -1 rather than a closed descriptor: a closed number may be reused by a parallel test.
    #expect(
      throws: SocketActivationError.descriptorFailed(
        fd: -1, name: "tcp", operation: "sd_is_socket", errno: EBADF)
    ) {
      try SocketActivation.adopt(InheritedListener(descriptor: -1, name: "tcp"))
    }
  }
}
