import CLinux

/// Why a ``SendRing`` cannot be used, said in the start-up log where the server falls back to
/// one `send` per connection through epoll.
package enum SendRingUnavailable: Error, CustomStringConvertible {
  /// The kernel has no io_uring (ENOSYS), forbids it (EPERM under a seccomp profile, or
  /// `kernel.io_uring_disabled`), or lacks memory for the ring.
  case setup(SystemError)
  /// The kernel cannot list its io_uring operations: before 5.6 it has no probe, and no
  /// `IORING_OP_SEND` either.
  case probe(SystemError)
  /// The kernel's io_uring lacks an operation batched sends need (5.1 to 5.5 have no
  /// `IORING_OP_SEND`: every batched send would fail with EINVAL and close its connection).
  case missingOperation(UInt8)

  package var description: String {
    switch self {
    case .setup(let error):
      return "\(error)"
    case .probe(let error):
      return "cannot list the kernel's io_uring operations: \(error)"
    case .missingOperation(let operation):
      return "the kernel's io_uring lacks operation \(Self.name(of: operation))"
    }
  }

  /// The operation's name where it is one this server uses, else its number.
  package static func name(of operation: UInt8) -> String {
    switch operation {
    case observable_send_ring_send_operation(): "IORING_OP_SEND"
    case observable_send_ring_sendmsg_operation(): "IORING_OP_SENDMSG"
    default: "\(operation)"
    }
  }
}
