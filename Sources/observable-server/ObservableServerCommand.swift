import ArgumentParser
import ObservableServer

@main
struct ObservableServerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observable-server",
    abstract: "Serves named observables over line-delimited JSON.",
    discussion: """
      Clients connect over TCP or a Unix socket, get a greeting line, and send one request per line, as JSON ({"op":"subscribe","stream":"clock"}) or as words (subscribe clock). The flags below configure the server; 'observable-server check' probes a running one.

      Examples:
        observable-server
        observable-server --listen 0.0.0.0:7070 --listen unix:/tmp/observable.sock
        observable-server --exec 'load=while :; do cat /proc/loadavg; sleep 1; done'
        OBSERVABLE_SERVER_TOKEN=s3cret observable-server --max-connections 10000
        observable-server check --connect 127.0.0.1:7070

      """,
    version: ObservableServer.version,
    subcommands: [Serve.self, Check.self, TokenCommand.self]
  )

  @OptionGroup var options: ServerOptions

  func run() throws {
    try options.runServer()
  }
}
