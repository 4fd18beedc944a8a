import ArgumentParser
import Foundation
import ObservableServer

/// `observable-bench`: the project's own benchmark, run with `swift run -c release
/// observable-bench`, which measures a server it starts itself and prints a table.
@main
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observable-bench",
    abstract: "Measures observable-server: fan-out, latency, connection memory, churn and soak.",
    discussion: """
      By default each measurement gets a fresh observable-server (the one built next to this
      benchmark, rebuilt first when SwiftPM built the benchmark from this package) on a free
      127.0.0.1 port with --log-level warning, stopped afterwards. --connect measures a server
      that is already running, on loopback only. The defaults take well under a minute on two
      cores. The soak runs only when asked for (--scenario soak --duration S), and needs a
      server it starts.

      --peers redis,nats,mosquitto with --scenario fan-out, memory or latency measures those
      servers beside observable-server in one run, each started on a free loopback port and
      spoken to in its own protocol (RESP, NATS, MQTT 3.1.1 QoS 0), interleaved over
      --repeats rounds; --tls does the same for fan-out and memory with every connection over
      TLS, on a throwaway certificate made with openssl.

      Exit status: 0 when every check passed, 1 when something was lost or a check failed
      (or a measurement could not be made), 64 for bad arguments.
      """,
    version: ObservableServer.version)

  @Option(
    name: .customLong("scenario"),
    help: ArgumentHelp(
      "A scenario to run: fan-out, latency, memory, churn, patterns, soak or broadcast."
        + " Repeatable; default: all but patterns, soak and broadcast, which take longer"
        + " (broadcast runs alone).",
      valueName: "name"))
  var scenarios: [ScenarioName] = []

  @Option(
    help: ArgumentHelp(
      "Subscriber counts of the fan-out rows, comma separated.", valueName: "n,n,…"))
  var subscribers = "1,10,100"

  @Option(
    help: ArgumentHelp(
      "Messages per fan-out row (default: 6,000,000 deliveries' worth, 20,000 to 1,000,000).",
      valueName: "n"))
  var messages: Int?

  @Option(
    help: ArgumentHelp(
      "Fan-out: how subscribers connect, tcp, websocket, websocket-deflate (permessage-deflate, each subscriber's own context), websocket-shared (permessage-deflate with server_no_context_takeover), sse (Server-Sent Events) or deflate (tcp, compressed), comma separated; each count runs once per transport.",
      valueName: "t,t"))
  var transport = "tcp"

  @Option(help: "Fan-out: most messages published ahead of the slowest subscriber.")
  var window = 2000

  @Option(help: "Bytes of each published value (at least \(Payload.minimumBytes)).")
  var payloadBytes = 64

  @Option(help: "Latency: messages published per second.")
  var rate = 5000

  @Option(help: "Latency: subscribers.")
  var latencySubscribers = 10

  @Option(help: "Latency: seconds of paced publishing.")
  var latencySeconds = 4.0

  @Option(help: "Connection memory: connections to open.")
  var connections = 5000

  @Option(help: "Churn: subscribe+unsubscribe pairs.")
  var pairs = 200_000

  @Option(help: "Patterns: background pattern subscriptions, none matching what is published.")
  var patterns = 100_000

  @Option(
    help: ArgumentHelp(
      "Patterns: how many patterns each matching row's publishes match (at most 128).",
      valueName: "k,k,…"))
  var patternMatches = "1,10,100"

  @Option(
    help: ArgumentHelp(
      "Patterns: publishes per measured run (2,000,000 / k at most for k matches); enough for the"
        + " server's CPU time, counted in 10 ms ticks, to be read to about 2 %.",
      valueName: "n"))
  var patternPublishes = 1_000_000

  @Option(help: "Soak: seconds of the soak proper, after a warm-up of a tenth of it (5-30 s).")
  var duration = 60.0

  @Option(help: "Soak: clients connected at once.")
  var clients = 300

  @Flag(help: "Soak: the server requires a token, and some clients never send it.")
  var token = false

  @Option(
    help: ArgumentHelp(
      "Soak: values of history per topic the started server keeps (its --history; 0: none),"
        + " within 8 MiB (its --max-history-bytes), so the byte limit is reached and evicts.",
      valueName: "n"))
  var soakHistory = 0

  @Option(help: ArgumentHelp("The observable-server executable to start.", valueName: "path"))
  var server: String?

  @Flag(help: "Do not rebuild observable-server before measuring it.")
  var noBuild = false

  @Option(
    help: ArgumentHelp("Event loop threads of a started server (its --threads).", valueName: "n"))
  var serverThreads: Int?

  @Option(
    help: ArgumentHelp(
      "Measure a server that is already running at HOST:PORT (loopback only).",
      valueName: "host:port"))
  var connect: String?

  @Option(help: "Seconds the whole run may take; past it, what is left is skipped.")
  var timeout = 120.0

  @Flag(help: "Print one JSON object instead of the table.")
  var json = false

  @OptionGroup var broadcast: BroadcastOptions

  @OptionGroup var clusterBroadcast: ClusterBroadcastOptions

  @OptionGroup var comparison: ComparisonOptions

  @OptionGroup var fanOutAuth: FanOutAuthOptions

  /// Whether the comparison beside the peers runs over TLS.
  var tls: Bool { comparison.tls }

  func validate() throws {
    guard parsedSubscribers != nil else {
      throw ValidationError("--subscribers \(subscribers): expected positive counts like 1,10,100")
    }
    if let messages, messages < 1 { throw ValidationError("--messages must be at least 1") }
    guard window >= 1 else { throw ValidationError("--window must be at least 1") }
    guard payloadBytes >= Payload.minimumBytes, payloadBytes <= 1 << 16 else {
      throw ValidationError("--payload-bytes must be \(Payload.minimumBytes) to 65536")
    }
    guard rate >= 1, rate <= 1_000_000 else {
      throw ValidationError("--rate must be 1 to 1000000")
    }
    guard latencySubscribers >= 1 else {
      throw ValidationError("--latency-subscribers must be at least 1")
    }
    guard latencySeconds > 0 else { throw ValidationError("--latency-seconds must be positive") }
    guard connections >= 1 else { throw ValidationError("--connections must be at least 1") }
    guard pairs >= 1 else { throw ValidationError("--pairs must be at least 1") }
    guard patterns >= 0 else { throw ValidationError("--patterns must be at least 0") }
    guard parsedPatternMatches != nil else {
      throw ValidationError("--pattern-matches \(patternMatches): expected counts from 1 to 128")
    }
    guard patternPublishes >= 1 else {
      throw ValidationError("--pattern-publishes must be at least 1")

    }
    guard duration > 0, duration <= 86_400 else {
      throw ValidationError("--duration must be more than 0 and at most 86400 seconds")
    }
    guard clients >= 1, clients <= 5000 else {
      throw ValidationError("--clients must be 1 to 5000")
    }
    if let serverThreads, serverThreads < 1 {
      throw ValidationError("--server-threads must be at least 1")
    }
    guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    guard transport.split(separator: ",").count == parsedTransports.count,
      !parsedTransports.isEmpty
    else {
      throw ValidationError(
        "--transport \(transport): expected tcp, websocket, websocket-deflate, websocket-shared, sse or deflate, comma separated"
      )
    }
    try validateComparison()
    if let connect {
      guard server == nil, serverThreads == nil, !fanOutAuth.authorizes else {
        throw ValidationError(
          "--connect measures a running server: drop --server, --server-threads and --auth-users")
      }
      do {
        _ = try LoopbackAddress(parsing: connect)
      } catch {
        throw ValidationError(error.description)
      }
    }
  }

  func run() throws {
    if try runClusterModes() { return }
    if try runComparison() { return }
    let selected =
      scenarios.isEmpty
      ? ScenarioName.allCases.filter { $0 != .patterns && $0 != .soak && $0 != .broadcast }
      : ScenarioName.allCases.filter(scenarios.contains)
    // The soak's own length comes on top of --timeout: warm-up, soak, leaving and settling.
    let soakSeconds = selected.contains(.soak) ? duration + min(30, max(5, duration / 10)) + 90 : 0
    // The broadcast gives each server it compares the whole --timeout.
    let broadcastRuns = selected.contains(.broadcast) ? broadcast.runs : 1
    let timeout = self.timeout * Double(broadcastRuns) + soakSeconds
    // Ten seconds past the timeout, a stuck run is ended outright.
    ChildProcessGuard.install(hardLimitSeconds: timeout + 10)
    let deadline = Deadline(secondsFromNow: timeout)
    if selected == [.broadcast] { return try runBroadcast(secondsEach: self.timeout) }
    try reportingFailure {
      // The client's sockets, the few files of its own, and the same for a server it starts.
      let memory = selected.contains(.memory) ? connections : 0
      let fanOut = selected.contains(.fanOut) ? (parsedSubscribers?.max() ?? 0) + 1 : 0
      let soak = selected.contains(.soak) ? clients + 16 : 0
      try FileLimit.raise(toAtLeast: max(memory, fanOut, soak, latencySubscribers + 1) + 256)

      let (source, serverText) = try serverSource(deadline: deadline)
      let run = BenchRun(
        measurements: try measurements(selected), source: source, deadline: deadline)
      let report = BenchReport(
        version: ObservableServer.version, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
        date: Date.now.formatted(.iso8601.year().month().day()),
        serverMode: connect == nil ? "started" : "connect", server: serverText,
        notes: notes(selected), results: run.execute())
      print(json ? report.json() : report.table())
      if !report.passed { throw ExitCode.failure }
    }
  }
}
