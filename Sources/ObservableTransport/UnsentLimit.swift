import Glibc
import ObservablePOSIX

/// How many bytes the kernel holds unsent for one client socket: what does not fit waits in
/// the connection's ``Outbox``, where the server-wide ``QueuedOutput`` counts it.
///
/// Left to itself, Linux grows a socket's send buffer up to `tcp_wmem`'s maximum (4 MiB by
/// default) even when the peer's window is shut. Under a publish flood 400 subscribers that
/// read nothing so took 1.4 GB into the kernel, outside every bound of the server, and copying
/// it there was most of the 4 to 10 s a bystander's first ping waited. `TCP_NOTSENT_LOWAT`
/// makes a socket writable, and `send` take more, only while fewer bytes than this wait
/// unsent; bytes sent and not yet acknowledged are not limited, so a reader that keeps up on
/// a long path still gets a full window.
package enum UnsentLimit {
  /// The unsent bytes a socket may hold: a few sends' worth, so a reader that keeps up never
  /// waits for the loop's next turn to refill it.
  static let bytes: Int32 = 128 << 10

  /// Limits the unsent bytes of the TCP socket `fd`; fails harmlessly on a Unix socket, whose
  /// send buffer does not grow.
  static func apply(to fd: Int32) {
    _ = try? SocketCalls.setOption(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, bytes)
  }
}
