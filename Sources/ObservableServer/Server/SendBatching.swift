import Glibc
import Logging
import ObservableCounters
import ObservablePOSIX

/// Whether the server batches the sends of a publish through io_uring.
public enum SendBatching: String, Sendable, CaseIterable {
  /// io_uring when the kernel allows it (a seccomp profile such as Docker's default forbids
  /// it), else one `send` per connection.
  case auto
  /// One `send` per connection, through epoll, always.
  case off

  /// `auto`, unless the `OBSERVABLE_IO_URING` environment variable says `off`, so a whole test
  /// suite or a deployment can turn batching off without changing code or flags.
  public static var fromEnvironment: SendBatching {
    guard let value = getenv("OBSERVABLE_IO_URING") else { return .auto }
    return SendBatching(rawValue: String(cString: value)) ?? .auto
  }
}

extension SendBatching {
  /// A send ring for one loop, or `nil` when the kernel has no io_uring, forbids it, or lacks
  /// one of `operations`; the log says why, and which way sends go.
  static func openRing(
    counters: ServerCounters, requiring operations: [UInt8], logger: Logger, logsSuccess: Bool
  ) -> SendRing? {
    do {
      let ring = try SendRing(entries: 4096, counters: counters, requiring: operations)
      if logsSuccess { logger.notice("sends batched through io_uring") }
      return ring
    } catch {
      logger.notice(
        "io_uring unavailable; one send per connection through epoll",
        metadata: ["reason": "\(error)"])
      return nil
    }
  }
}
