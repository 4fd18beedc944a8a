import ArgumentParser
import Logging
import ObservableClient

/// The options every subcommand shares: where the server is and how to connect to it.
struct ConnectionOptions: ParsableArguments {
  @Option(
    help: """
      The server's address: host:port, [v6addr]:port or unix:/path, with tls:// in front for \
      TLS (default: $OBSERVABLE_SERVER, else 127.0.0.1:7070).
      """)
  var server: String?

  @Option(
    help: "The token sent with auth before anything else (default: $OBSERVABLE_SERVER_TOKEN).")
  var token: String?

  @Option(
    help:
      "The user of the server's --auth-file that --token belongs to (default: $OBSERVABLE_SERVER_USER)."
  )
  var user: String?

  @Option(
    help:
      "A signed token (JWT) sent with auth instead of --token (default: $OBSERVABLE_SERVER_JWT).")
  var jwt: String?

  @Flag(help: "Ask the server to compress its lines with deflate.")
  var compress = false

  @Option(
    name: .customLong("keep-alive"),
    help: ArgumentHelp(
      "Ping after this many seconds without a line from the server, and reconnect when as many pass without an answer: how a vanished link is found (0 never pings).",
      valueName: "seconds"))
  var keepAlive: Int = 30

  @OptionGroup(title: "TLS (with a tls:// address)") var tls: TLSOptions

  /// The address the command connects to.
  var address: String {
    server ?? Terminal.environment("OBSERVABLE_SERVER") ?? "127.0.0.1:7070"
  }

  mutating func validate() throws {
    let usesTLS: Bool
    do {
      usesTLS = try ServerAddress.parsing(url: address).usesTLS
    } catch {
      throw ValidationError("\(error)")
    }
    try tls.check(usesTLS: usesTLS)
    guard keepAlive >= 0 else { throw ValidationError("--keep-alive must be 0 (off) or seconds") }
  }

  /// A connected client; on failure, the reason on stderr and exit status 1.
  func connect() async throws -> ObservableClient {
    var configuration = ClientConfiguration(
      token: token ?? Terminal.environment("OBSERVABLE_SERVER_TOKEN"),
      compression: compress, user: user ?? Terminal.environment("OBSERVABLE_SERVER_USER"),
      signedToken: jwt ?? Terminal.environment("OBSERVABLE_SERVER_JWT"))
    configuration.keepAliveInterval = keepAlive > 0 ? .seconds(keepAlive) : nil
    // Set only for a tls:// address: the client speaks TLS whenever it has a configuration.
    if (try? ServerAddress.parsing(url: address))?.usesTLS == true {
      configuration.tls = tls.configuration
    }
    // The command reports what matters itself, on stderr; the library's warnings would repeat it.
    configuration.logger = Logger(label: "observable") { _ in SwiftLogNoOpLogHandler() }
    let client = try ObservableClient(address, configuration: configuration)
    try await Failure.reporting { try await client.connect() }
    return client
  }
}

/// Ends a command with a message on stderr and exit status 1.
enum Failure {
  /// Runs `body`; a ``ClientError`` becomes `observable: MESSAGE` on stderr and exit status 1.
  static func reporting<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as ClientError {
      Terminal.error("observable: \(error)")
      throw ExitCode.failure
    }
  }
}
