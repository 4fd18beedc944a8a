import ArgumentParser
import Logging
import ObservableLogging
import ObservableServer

/// Runs the server until SIGINT or SIGTERM; SIGHUP reloads the TLS certificate.
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the server (what observable-server does without a subcommand).")

  @OptionGroup var options: ServerOptions

  func run() throws {
    try options.runServer()
  }
}

extension ServerOptions {
  /// Runs the server these options describe until SIGINT or SIGTERM; with TLS, each SIGHUP
  /// reads the certificate and key again.
  func runServer() throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    let journal = JournalStream.isConnected()
    LoggingSystem.bootstrap { _ in
      var handler = LogfmtLogHandler(journal: journal)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "observable-server")
    var configuration = try configuration()

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
    ShutdownSignals.install()
    do {
      try server.start()
    } catch let failure as StoreStartFailure {
      logger.critical(
        "cannot start: \(failure)", metadata: ["exit_status": "\(failure.exitStatus)"])
      throw ExitCode(failure.exitStatus)
    } catch {
      logger.critical("cannot start: \(error)")
      throw ExitCode.failure
    }
    systemd.started(server)
    var signal = ShutdownSignals.wait()
    while signal == "SIGHUP" {
      server.reload()
      signal = ShutdownSignals.wait()
    }
    logger.notice("shutting down", metadata: ["signal": "\(signal)"])
    systemd.stopping()
    server.shutdown()
  }
}
