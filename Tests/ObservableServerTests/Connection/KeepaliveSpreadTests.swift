import Glibc
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// Connections opened together must not send their keepalive probes together: a burst past
/// the kernel's receive backlog is dropped, and three lost rounds end live connections.
@Suite("Keepalive spread")
struct KeepaliveSpreadTests {
  @Test func socketsSetTogetherStartProbingAtDifferentTimesWithinTheTimeout() throws {
    var idles: [Int32] = []
    for _ in 0..<64 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(fd >= 0)
      defer { close(fd) }
      try SocketCalls.dropWhenSilent(fd, after: .seconds(60))
      var idle: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      try #require(getsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, &length) == 0)
      idles.append(idle)
    }
    // 60 s: probes 10 s apart, three of them, after an idle time of 15 to 30 s.
    #expect(idles.allSatisfy { (15...30).contains($0) }, "\(idles)")
    #expect(Set(idles).count >= 8, "64 sockets share only \(Set(idles).sorted())")
  }
}
