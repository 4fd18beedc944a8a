/// What the scheduler did with the server and with the benchmark during each broadcast, from
/// /proc/PID/task/*/schedstat: the time each ran and the time each was runnable but had no CPU.
///
/// On a loaded machine the time to the last subscriber is mostly waiting for a CPU, not work;
/// these figures say how much, so a row can be read apart from the load it was measured under.
struct BroadcastScheduling {
  /// A process's totals: time run and time waiting, in nanoseconds, and slices.
  typealias Totals = (running: UInt64, waiting: UInt64, slices: UInt64)

  private(set) var serverCPU: [Double] = []
  private(set) var serverWait: [Double] = []
  private(set) var benchCPU: [Double] = []
  private(set) var benchWait: [Double] = []

  /// Adds one broadcast's growths, in milliseconds; the benchmark's only when it could read
  /// its own.
  mutating func record(server: (Totals, Totals), bench: (Totals, Totals)?) {
    serverCPU.append(Self.milliseconds(server.1.running &- server.0.running))
    serverWait.append(Self.milliseconds(server.1.waiting &- server.0.waiting))
    guard let bench else { return }
    benchCPU.append(Self.milliseconds(bench.1.running &- bench.0.running))
    benchWait.append(Self.milliseconds(bench.1.waiting &- bench.0.waiting))
  }

  private static func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e6 }
}
