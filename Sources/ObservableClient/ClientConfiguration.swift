import Logging

/// How an ``ObservableClient`` connects: TLS, token, compression, reconnection, limits, logging.
public struct ClientConfiguration: Sendable {
  /// Sent with `auth` before anything else on every connection; `nil` sends none.
  public var token: String?
  /// The user of the server's `--auth-file` whose `token` this is; `nil` sends `token` as
  /// `--token`'s.
  public var user: String?
  /// A signed token (JWT) sent with `auth` instead of `token`; `nil` sends none.
  public var signedToken: String?
  /// Whether to ask for `compress deflate` on every connection.
  public var compression: Bool
  /// The waits between reconnection attempts.
  public var reconnect: ReconnectPolicy
  /// How long one connection attempt, greeting and handshake included, may take.
  public var connectTimeout: Duration
  /// The longest line accepted from the server; a longer one drops the connection, which then
  /// reconnects. Bounds the client's memory for any input.
  public var maximumLineBytes: Int
  /// After this long without a line from the server the client sends `ping`, and if another
  /// interval passes without any line it drops the connection and reconnects: a host that
  /// vanished shows no other way. `nil` never pings.
  public var keepAliveInterval: Duration?
  /// Where the client reports values that do not decode, refused subscriptions and reconnects.
  public var logger: Logger
  /// TLS for every connection, from the first byte; `nil` connects in plain text. A
  /// `tls://host:port` address sets the default (``ClientTLSConfiguration/init(caFile:certificateFile:privateKeyFile:serverName:verifiesServer:)``).
  public var tls: ClientTLSConfiguration?

  /// Creates a configuration; the defaults need no token, do not compress, reconnect after
  /// 100 ms doubling up to 5 s, accept lines up to 16 MiB, and ping after 30 s of silence.
  public init(
    token: String? = nil, compression: Bool = false, reconnect: ReconnectPolicy = .init(),
    connectTimeout: Duration = .seconds(5), maximumLineBytes: Int = 16 << 20,
    keepAliveInterval: Duration? = .seconds(30), logger: Logger = Logger(label: "ObservableClient"),
    tls: ClientTLSConfiguration? = nil, user: String? = nil, signedToken: String? = nil
  ) {
    self.token = token
    self.user = user
    self.signedToken = signedToken
    self.compression = compression
    self.reconnect = reconnect
    self.connectTimeout = connectTimeout
    self.maximumLineBytes = max(1_024, maximumLineBytes)
    self.keepAliveInterval = keepAliveInterval
    self.logger = logger
    self.tls = tls
  }
}
