import Glibc

/// `--scenario broadcast`: each server in turn, in one run, with the same client code.
struct BroadcastRun {
  let options: BroadcastOptions
  let observableServer: String
  /// How long one server's measurement may take.
  let secondsEach: Double

  /// Measures every peer `repeats` times; a peer that cannot be measured stops the run.
  func execute() throws(BenchError) -> BroadcastReport {
    let loadAverage =
      ProcFile.read("/proc/loadavg")?.split(separator: " ").prefix(3)
      .joined(separator: " ") ?? "unknown"
    var results: [BroadcastResult] = []
    for round in 0..<options.repeats {
      for peer in options.parsedPeers ?? [] {
        // Each loop count of observable-server in turn, so that they share the machine's
        // load as the peers do; the peers take no such option.
        let counts = peer.isObservable ? options.parsedThreads ?? [nil] : [nil]
        for threads in counts {
          BenchLog.note(
            "broadcast \(round + 1)/\(options.repeats): \(peer.rawValue)"
              + (threads.map { " --threads \($0)" } ?? "") + ", \(options.subscribers) subscribers")
          let scenario = BroadcastScenario(
            peer: peer, threads: threads, subscribers: options.subscribers,
            broadcasts: options.broadcasts, observableServer: observableServer)
          results.append(try scenario.run(deadline: Deadline(secondsFromNow: secondsEach)))
        }
      }
    }
    return BroadcastReport(
      results: results, broadcasts: options.broadcasts, loadAverage: loadAverage)
  }
}
