import ArgumentParser
import ObservablePOSIX
import ObservableServer

/// Connects, pings and exits 0 when the server answers: a health check for containers.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Exit 0 if a server answers ping at the address, 1 otherwise.")

  @Option(
    help: ArgumentHelp("The server: host:port, [v6addr]:port or unix:/path.", valueName: "address"))
  var connect = "127.0.0.1:7070"

  @Option(help: "Seconds to wait for the answer.")
  var timeout: Double = 3

  func run() throws {
    guard let address = ListenAddress(connect) else {
      throw ValidationError("--connect \(connect): expected host:port, [v6addr]:port or unix:/path")
    }
    do {
      try HealthCheck.ping(address, timeout: .milliseconds(Int(timeout * 1000)))
      print("ok: \(connect) answered ping")
    } catch {
      print("failed: \(connect): \(error)")
      throw ExitCode.failure
    }
  }
}
