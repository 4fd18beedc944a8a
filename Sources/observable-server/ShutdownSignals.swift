import Dispatch
import Glibc
import Logging

/// Turns SIGINT and SIGTERM into one orderly shutdown.
enum ShutdownSignals {
  /// Ignores the signals' default action and runs `shutdown` once, off the signal context, when
  /// either arrives.
  static func install(logger: Logger, shutdown: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "observable-server.signals")
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        logger.notice(
          "shutting down", metadata: ["signal": "\(number == SIGINT ? "SIGINT" : "SIGTERM")"])
        shutdown()
      }
      source.activate()
      sources.append(source)
    }
  }

  // Kept alive for the life of the process; only touched while installing, before any signal.
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
}
