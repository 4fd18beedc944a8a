import Glibc
import ObservableCluster
import ObservableCredentials
import ObservablePOSIX
import ObservableWire
import TLS

/// Everything that shapes one server: where it listens, its streams and its limits.
public struct ServerConfiguration: Sendable {
  /// Addresses to bind; ignored for sockets handed over by socket activation.
  public var listen: [ListenAddress] = [.tcp(host: "127.0.0.1", port: 7070)]
  /// Addresses to serve HTTP on (`--http`): the live page at `/`, `/metrics`, `/healthz` and
  /// the protocol over WebSocket at `/ws`. None by default.
  public var httpListen: [ListenAddress] = []
  /// Addresses to serve the line protocol on over TLS (`--listen tls://…`). None by default.
  public var tlsListen: [ListenAddress] = []
  /// Addresses to serve HTTP on over TLS (`--http https://…`): what `httpListen` serves,
  /// WebSocket as `wss://`. None by default.
  public var httpsListen: [ListenAddress] = []
  /// The certificate, key and client certificate policy of every TLS listener; required when
  /// there is one. Read again on ``ObservableServer/reloadCertificates()`` (SIGHUP).
  public var tls: TLSServerConfiguration?
  /// How long a client of a TLS listener may take to finish its handshake before it is
  /// closed; the handshake holds a connection slot meanwhile.
  public var tlsHandshakeTimeout: Duration = .seconds(10)
  /// Origins whose pages may open `/ws`, besides the server's own reached by IP address or
  /// `localhost` (a DNS name could be rebound); requests without `Origin` (not from a
  /// browser) are always accepted.
  public var allowOrigins: [String] = []
  /// How often a WebSocket peer is pinged; one that sent nothing between two pings is dropped.
  public var webSocketPingInterval: Duration = .seconds(20)
  /// How long an HTTP client may take to send its request head before it gets 408.
  public var httpHeadTimeout: Duration = .seconds(10)
  /// How often an idle `GET /sse` stream gets a comment line, so proxies keep it open.
  public var serverSentEventsHeartbeat: Duration = .seconds(15)
  /// How long a browser waits before it reconnects a dropped `GET /sse` stream, sent as the
  /// stream's first field (`retry:`), so every browser waits the same (Chromium's own default).
  public var serverSentEventsRetry: Duration = .seconds(3)
  /// Already listening descriptors to serve instead of binding, as systemd hands them over;
  /// one named `http` is served as HTTP, `tls` as the line protocol over TLS and `https` as
  /// HTTP over TLS.
  public var inheritedListeners: [InheritedListener] = []
  /// Streams whose values are the output lines of a command.
  public var execStreams: [ExecStreamConfiguration] = []
  /// When set, a client must send `auth` with this token before anything else.
  public var token: String?
  /// Users, their rules and signed tokens (`--auth-file`, `--jwt-key`), with `token` as the one
  /// user with every permission; `nil` for `token` alone.
  package var access: AccessPolicy?
  /// The longest request line, in bytes.
  public var maxLineBytes = 1 << 20
  /// How many clients of the line protocol (`listen`) may be connected at once.
  public var maxConnections = 1024
  /// How many HTTP connections (`httpListen`), WebSocket ones included, may be open at once;
  /// a limit of their own, so that HTTP clients cannot take the line protocol's slots.
  ///
  /// 256: the HTTP port serves operators (the live page, scrapes, health probes) and browser
  /// pages over `/ws`, fewer than the line protocol's clients; a deployment that serves many
  /// browsers raises it, and the descriptor limit with it (one descriptor per connection).
  public var maxHTTPConnections = 256
  /// How many bytes may wait to be written to one connection before it is closed as slow.
  public var maxQueuedBytes = 8 << 20
  /// How many bytes may wait to be written to all connections together: past it, connections
  /// stop reading and those with the largest queues are closed as slow consumers.
  ///
  /// 256 MiB fits a machine of 1 GiB: without it, 500 subscribers that read nothing made
  /// 50 publishers' server hold 5.5 GB, 500 times `maxQueuedBytes`.
  public var maxTotalQueuedBytes = 256 << 20
  /// How many event loop threads serve connections: one per core but one, which is left to
  /// the kernel's network work, local clients and the server's other threads. On two cores a
  /// single loop delivered as much and halved latency, since handing a value to another loop
  /// costs a wake-up and a context switch.
  public var eventLoopCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1)
  /// How long a peer may acknowledge nothing before its connection is dropped, through TCP
  /// keepalive probes while idle and `TCP_USER_TIMEOUT` while data is unacknowledged; `nil`
  /// leaves the kernel's defaults (hours for an idle peer, about 15 minutes otherwise).
  public var deadPeerTimeout: Duration? = .seconds(60)
  /// How long a client may take to authenticate when a token is set.
  public var authTimeout: Duration = .seconds(5)
  /// How many subscriptions, patterns included, one connection may hold.
  public var maxSubscriptions = 10_000
  /// How many bytes all retained values together may take.
  public var maxRetainedBytes = 64 << 20
  /// Values kept per topic for `since` and the `history` op (`--history`); 0 keeps none.
  public var historyPerTopic = 0
  /// How long a value stays in history (`--history-ttl`); `nil` for no limit.
  public var historyTimeToLive: Duration?
  /// Bytes all topics' history may take together (`--max-history-bytes`).
  public var maxHistoryBytes = 64 << 20
  /// The epoch of the history's positions; `nil` picks one at random when the server starts.
  public var historyEpoch: UInt32?
  /// The zlib level (0 to 9) of connections that send `compress`: 1 is fastest, 9 smallest.
  ///
  /// 1, from fan-out to 100 compressed subscribers: level 1 cost the server 170 ns of CPU per
  /// delivered value for a ratio of 28:1, level 6 (zlib's default) 400 ns for 33:1, level 9
  /// 790 ns for 34:1. Each subscriber's stream is compressed on its own, so the level's cost is
  /// paid once per subscriber and value.
  public var deflateLevel = 1
  /// Whether compressed connections end every line with a sync flush, instead of every write;
  /// costs bytes and CPU, and is there to measure that cost.
  public var deflateFlushesEachLine = false
  /// How long shutdown waits for connections to take what was queued for them and close.
  public var shutdownGrace: Duration = .seconds(1)
  /// The cluster to join through NATS (`--cluster`); `nil` runs the server on its own, with
  /// no NATS code running at all.
  public var cluster: ClusterConfiguration?
  /// The store that keeps retained values across restarts (`--data-dir`, `--fsync`); `nil`
  /// keeps them in memory only.
  public var store: StoreConfiguration?
  /// Whether a publish's sends to many connections go to the kernel in io_uring batches.
  public var sendBatching = SendBatching.fromEnvironment
  /// The io_uring operations the kernel must support for sends to be batched; a test adds one
  /// no kernel has, to see the server fall back to epoll.
  var sendRingOperations = SendRing.requiredOperations
  /// How long an exec process gets after `SIGTERM` before `SIGKILL`.
  public var execGracePeriod: Duration = .seconds(1)

  /// Creates a configuration with the defaults.
  public init() {}
}

/// A stream backed by a command started under `/bin/sh -c`.
public struct ExecStreamConfiguration: Sendable {
  /// The stream's name.
  public var name: String
  /// The shell command line.
  public var command: String

  /// Parses `NAME=COMMAND`; returns `nil` when malformed.
  public init?(_ text: String) {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let name = String(text[..<equals])
    let command = String(text[text.index(after: equals)...])
    guard (try? StreamName.validate(name)) != nil, !command.isEmpty else { return nil }
    self.name = name
    self.command = command
  }
}
