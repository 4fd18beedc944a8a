import ArgumentParser
import Glibc
import Logging
import ObservableCluster
import ObservablePOSIX
import ObservableServer

/// Every flag of the server, shared by the root command and `serve`.
struct ServerOptions: ParsableArguments {
  @Option(
    name: .customLong("listen"),
    help: ArgumentHelp(
      "Address to listen on: host:port, [v6addr]:port or unix:/path; tls://host:port for TLS (--tls-cert). Repeatable.",
      valueName: "address"))
  var listen: [String] = ["127.0.0.1:7070"]

  @Option(
    name: .customLong("http"),
    help: ArgumentHelp(
      "Serve HTTP here: the live page at /, /metrics, /healthz and WebSocket at /ws. host:port, [v6addr]:port or unix:/path; https://host:port for TLS (--tls-cert). Repeatable; off by default.",
      valueName: "address"))
  var http: [String] = []

  @Option(
    name: .customLong("allow-origin"),
    help: ArgumentHelp(
      "An origin (scheme://host:port) whose pages may open /ws; the server's own passes unlisted only when reached by IP address or localhost. Repeatable.",
      valueName: "origin"))
  var allowOrigin: [String] = []

  @Option(
    name: .customLong("exec"),
    help: ArgumentHelp(
      "A stream of a command's output lines, started under /bin/sh -c while observed. Repeatable.",
      valueName: "name=command"))
  var exec: [String] = []

  @Option(
    help: ArgumentHelp(
      "Require {\"op\":\"auth\",\"token\":…} first. Visible to local users in ps: prefer the OBSERVABLE_SERVER_TOKEN environment variable or --token-file.",
      valueName: "token"))
  var token: String?

  @Option(
    help: ArgumentHelp(
      "Read the token from this file (its first line), which keeps it out of ps.",
      valueName: "path"))
  var tokenFile: String?

  @Option(help: "Seconds a client has to authenticate when a token is set.")
  var authTimeout: Double = 5

  @OptionGroup var users: UserOptions

  @Option(
    help:
      "Seconds a peer may acknowledge nothing before it is dropped and its subscriptions end (TCP keepalive and TCP_USER_TIMEOUT); 0 turns it off."
  )
  var deadPeerTimeout: Int = 60

  @Option(help: "Longest request line in bytes.")
  var maxLineBytes = 1 << 20

  @Option(help: "Most line protocol clients (--listen) connected at once.")
  var maxConnections = 1024

  @Option(
    name: .customLong("max-http-connections"),
    help:
      "Most HTTP connections (--http), WebSocket ones included, open at once; a limit of their own."
  )
  var maxHTTPConnections = ServerConfiguration().maxHTTPConnections

  @Option(help: "Bytes queued for one client before it is closed as a slow consumer.")
  var maxQueuedBytes = 8 << 20

  @Option(
    help:
      "Bytes queued for all clients together; past it, the largest queues are closed as slow consumers."
  )
  var maxTotalQueuedBytes = 256 << 20

  @Option(help: "Most subscriptions (patterns included) one connection may hold.")
  var maxSubscriptions = 10_000

  @Option(help: "Bytes all retained values together may take.")
  var maxRetainedBytes = 64 << 20

  @Option(
    help:
      "Seconds shutdown gives connections to take what was queued for them and close (then they are closed)."
  )
  var shutdownGrace: Double = 1

  @Option(
    help: "zlib level (0-9) of connections that send compress: 1 is fastest, 9 smallest.")
  var deflateLevel = ServerConfiguration().deflateLevel

  // Measures the cost of flushing per message; not a trade-off worth offering.
  @Flag(help: .private)
  var deflateFlushEachLine = false

  @Option(help: "Event loop threads (default: one per core but one, at least one).")
  var threads: Int?

  @Option(
    name: .customLong("cluster"),
    help: ArgumentHelp(
      "Join a cluster through this NATS server: nats://[user:password@|token@]host[:port], or tls:// for TLS (also used when the server requires it). Repeatable; off by default.",
      valueName: "url"))
  var cluster: [String] = []

  // Optional, not defaulted, so that giving one without --cluster can be refused.
  @Option(
    help: "The first tokens of the cluster's NATS subjects, shared by its nodes (default obs).")
  var clusterPrefix: String?

  @Option(
    help:
      "NATS servers that store each retained value (default 3; fewer if the cluster is smaller).")
  var clusterReplicas: Int?

  @OptionGroup var clusterTLS: ClusterTLSOptions

  @Option(
    name: .customLong("io-uring"),
    help: ArgumentHelp(
      "auto: batch the sends of a publish through io_uring when the kernel allows it (default, unless OBSERVABLE_IO_URING=off); off: one send per connection.",
      valueName: "auto|off"))
  var ioUring: String?

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel = "info"

  @OptionGroup var tls: TLSOptions

  @OptionGroup var store: StoreOptions
  @OptionGroup var history: HistoryOptions

  func validate() throws {
    for address in listen where SchemedListenAddress.listen(address) == nil {
      throw ValidationError(
        "--listen \(address): expected host:port, [v6addr]:port, unix:/path or tls://host:port")
    }
    for address in http where SchemedListenAddress.http(address) == nil {
      throw ValidationError(
        "--http \(address): expected host:port, [v6addr]:port, unix:/path or https://host:port")
    }
    for stream in exec where ExecStreamConfiguration(stream) == nil {
      throw ValidationError("--exec \(stream): expected name=command with a valid stream name")
    }
    guard maxLineBytes >= 64 else { throw ValidationError("--max-line-bytes must be at least 64") }
    guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
    guard maxHTTPConnections >= 1 else {
      throw ValidationError("--max-http-connections must be at least 1")
    }
    guard maxQueuedBytes >= 4096 else {
      throw ValidationError("--max-queued-bytes must be at least 4096")
    }
    guard maxTotalQueuedBytes >= maxQueuedBytes else {
      throw ValidationError("--max-total-queued-bytes must be at least --max-queued-bytes")
    }
    guard maxSubscriptions >= 1 else {
      throw ValidationError("--max-subscriptions must be at least 1")
    }
    guard maxRetainedBytes >= 0 else {
      throw ValidationError("--max-retained-bytes must not be negative")
    }
    guard deadPeerTimeout >= 0 else {
      throw ValidationError("--dead-peer-timeout must be 0 (off) or a number of seconds")
    }
    guard shutdownGrace >= 0, shutdownGrace <= 60 else {
      throw ValidationError("--shutdown-grace must be between 0 and 60 seconds")
    }
    guard authTimeout > 0 else { throw ValidationError("--auth-timeout must be positive") }
    if token != nil, tokenFile != nil {
      throw ValidationError("--token and --token-file: give one of them")
    }
    guard (0...9).contains(deflateLevel) else {
      throw ValidationError("--deflate-level must be 0 to 9")
    }
    if !cluster.isEmpty { _ = try clusterConfiguration() }
    if !cluster.isEmpty, store.dataDirectory != nil {
      throw ValidationError(
        "--data-dir and --cluster: a cluster keeps retained values in JetStream")
    }
    if cluster.isEmpty, let flag = clusterOnlyFlagGiven {
      throw ValidationError("\(flag) needs --cluster")
    }
    if let ioUring, SendBatching(rawValue: ioUring) == nil {
      throw ValidationError("--io-uring \(ioUring): expected auto or off")
    }
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level \(logLevel): expected trace, debug, info, notice, warning, error or critical")
    }
  }

  /// The server's configuration from the flags and the environment.
  func configuration() throws -> ServerConfiguration {
    var configuration = ServerConfiguration()
    let lines = listen.compactMap(SchemedListenAddress.listen)
    configuration.listen = lines.filter { !$0.tls }.map(\.address)
    configuration.tlsListen = lines.filter(\.tls).map(\.address)
    let pages = http.compactMap(SchemedListenAddress.http)
    configuration.httpListen = pages.filter { !$0.tls }.map(\.address)
    configuration.httpsListen = pages.filter(\.tls).map(\.address)
    try tls.apply(to: &configuration)
    store.apply(to: &configuration)
    configuration.allowOrigins = allowOrigin
    configuration.execStreams = exec.compactMap(ExecStreamConfiguration.init)
    configuration.token = try resolvedToken()
    configuration.access = try users.accessPolicy(token: configuration.token)
    configuration.authTimeout = .milliseconds(Int(authTimeout * 1000))
    configuration.deadPeerTimeout = deadPeerTimeout == 0 ? nil : .seconds(deadPeerTimeout)
    configuration.maxLineBytes = maxLineBytes
    configuration.maxConnections = maxConnections
    configuration.maxHTTPConnections = maxHTTPConnections
    configuration.maxQueuedBytes = maxQueuedBytes
    configuration.maxTotalQueuedBytes = maxTotalQueuedBytes
    configuration.maxSubscriptions = maxSubscriptions
    configuration.maxRetainedBytes = maxRetainedBytes
    configuration.shutdownGrace = .milliseconds(Int(shutdownGrace * 1000))
    configuration.deflateLevel = deflateLevel
    configuration.deflateFlushesEachLine = deflateFlushEachLine
    if let threads { configuration.eventLoopCount = threads }
    if !cluster.isEmpty { configuration.cluster = try clusterConfiguration() }
    try history.apply(to: &configuration)
    if let mode = ioUring.flatMap(SendBatching.init(rawValue:)) {
      configuration.sendBatching = mode
    }
    return configuration
  }

  private func resolvedToken() throws -> String? {
    guard let tokenFile else {
      return token ?? getenv("OBSERVABLE_SERVER_TOKEN").map { String(cString: $0) }
    }
    do {
      return try TokenFile.token(at: tokenFile)
    } catch .unreadable {
      throw ValidationError("--token-file \(tokenFile): cannot be read")
    } catch .tooLarge {
      throw ValidationError(
        "--token-file \(tokenFile): larger than \(TokenFile.byteLimit / 1024) KiB")
    } catch .empty {
      throw ValidationError("--token-file \(tokenFile): empty")
    }
  }
}
