import ArgumentParser
import Dispatch
import Foundation
import Logging
import ObservableServer

/// Runs the server until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Run the server (the default).")

  @Option(
    name: .customLong("listen"),
    help: ArgumentHelp(
      "Address to listen on: host:port, [v6addr]:port or unix:/path. Repeatable.",
      valueName: "address"))
  var listen: [String] = ["127.0.0.1:7070"]

  @Option(
    name: .customLong("exec"),
    help: ArgumentHelp(
      "A stream of a command's output lines, started under /bin/sh -c while observed. Repeatable.",
      valueName: "name=command"))
  var exec: [String] = []

  @Option(help: "Require {\"op\":\"auth\",\"token\":…} first (or set OBSERVABLE_SERVER_TOKEN).")
  var token: String?

  @Option(help: "Longest request line in bytes.")
  var maxLineBytes = 1 << 20

  @Option(help: "Most clients connected at once.")
  var maxConnections = 1024

  @Option(help: "Bytes queued for one client before it is closed as a slow consumer.")
  var maxQueuedBytes = 8 << 20

  @Option(help: "Event loop threads (default: one per core but one, at least one).")
  var threads: Int?

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel = "info"

  func validate() throws {
    for address in listen where ListenAddress(address) == nil {
      throw ValidationError("--listen \(address): expected host:port, [v6addr]:port or unix:/path")
    }
    for stream in exec where ExecStreamConfiguration(stream) == nil {
      throw ValidationError("--exec \(stream): expected name=command with a valid stream name")
    }
    guard maxLineBytes >= 64 else { throw ValidationError("--max-line-bytes must be at least 64") }
    guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
    guard maxQueuedBytes >= 4096 else {
      throw ValidationError("--max-queued-bytes must be at least 4096")
    }
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level \(logLevel): expected trace, debug, info, notice, warning, error or critical")
    }
  }

  func run() throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    let journal = JournalStream.isConnected()
    LoggingSystem.bootstrap { _ in
      var handler = LogfmtLogHandler(journal: journal)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "observable-server")
    var configuration = ServerConfiguration()
    configuration.listen = listen.compactMap(ListenAddress.init)
    configuration.execStreams = exec.compactMap(ExecStreamConfiguration.init)
    configuration.token = token ?? ProcessInfo.processInfo.environment["OBSERVABLE_SERVER_TOKEN"]
    configuration.maxLineBytes = maxLineBytes
    configuration.maxConnections = maxConnections
    configuration.maxQueuedBytes = maxQueuedBytes
    if let threads { configuration.eventLoopCount = threads }

    do {
      // Before anything can spawn a process, so exec children never see the activation.
      if let inherited = try SystemdService.takeListeners() {
        configuration.inheritedListeners = inherited
      }
    } catch {
      logger.critical("socket activation: \(error)")
      throw ExitCode.failure
    }

    let server = ObservableServer(configuration: configuration, logger: logger)
    let systemd = SystemdService()
    // Before the server announces itself, so that a signal sent as soon as it listens is handled.
    ShutdownSignals.install(logger: logger) {
      systemd.stopping()
      server.shutdown()
      Foundation.exit(0)
    }
    do {
      try server.start()
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
    systemd.started(server)
    dispatchMain()
  }
}
