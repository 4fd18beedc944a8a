import ArgumentParser

/// The options of `--scenario broadcast`.
struct BroadcastOptions: ParsableArguments {
  @Option(
    name: .customLong("broadcast-subscribers"),
    help:
      "Broadcast: subscriber connections to each server (each process stays under 20,000 files)."
  )
  var subscribers = 19_000

  @Option(help: "Broadcast: values published, each waited for at every subscriber.")
  var broadcasts = 20

  @Option(
    help: ArgumentHelp(
      "Servers to compare, comma separated. Broadcast: observable (io_uring), observable-epoll,"
        + " redis, nats, mosquitto (default: all five). Fan-out, memory and latency: redis,"
        + " nats, mosquitto, beside observable-server.",
      valueName: "p,p,…"))
  var peers: String?

  @Option(help: "Broadcast and comparisons: runs of the whole comparison, one after the other.")
  var repeats = 1

  @Option(
    name: .customLong("broadcast-threads"),
    help: ArgumentHelp(
      "Broadcast: event loop counts observable-server is measured with (its --threads), each"
        + " in turn in every round (default: its own default).",
      valueName: "n,n,…"))
  var threads: String?

  /// The loop counts `--broadcast-threads` names, `[nil]` for the server's default; `nil`
  /// when one is not a positive count.
  var parsedThreads: [Int?]? {
    guard let threads else { return [nil] }
    let counts = threads.split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1 }
    let named = threads.split(separator: ",", omittingEmptySubsequences: false).count
    return counts.count == named && !counts.isEmpty ? counts : nil
  }

  /// How many servers are measured in all, each within `--timeout`.
  var runs: Int {
    let observables = parsedPeers?.filter(\.isObservable).count ?? 1
    let others = (parsedPeers?.count ?? 1) - observables
    return (observables * (parsedThreads?.count ?? 1) + others) * repeats
  }

  /// The peers `--peers` names, in its order; `nil` when one is unknown.
  var parsedPeers: [ComparedServer]? {
    let names = (peers ?? ComparedServer.allCases.map(\.rawValue).joined(separator: ","))
      .split(separator: ",").map(String.init)
    let parsed = names.compactMap(ComparedServer.init(rawValue:))
    return parsed.count == names.count && !parsed.isEmpty ? parsed : nil
  }

  func validate() throws {
    guard subscribers >= 1, subscribers <= 19_500 else {
      throw ValidationError("--broadcast-subscribers must be 1 to 19500 (20,000 files a process)")
    }
    guard broadcasts >= 1, broadcasts <= 10_000 else {
      throw ValidationError("--broadcasts must be 1 to 10000")
    }
    guard repeats >= 1, repeats <= 20 else { throw ValidationError("--repeats must be 1 to 20") }
    guard parsedThreads != nil else {
      throw ValidationError("--broadcast-threads \(threads ?? ""): expected counts like 1,2")
    }
    guard parsedPeers != nil else {
      throw ValidationError(
        "--peers \(peers ?? ""): expected observable, observable-epoll, redis, nats, mosquitto")
    }
  }
}
