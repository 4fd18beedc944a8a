import ArgumentParser

/// `observable`: subscribe, publish, list and ping an observable-server from a terminal.
@main
struct ObservableCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observable",
    abstract: "Subscribe to, publish to and inspect an observable-server.",
    discussion: """
      The server is --server, else $OBSERVABLE_SERVER, else 127.0.0.1:7070; the token is
      --token, else $OBSERVABLE_SERVER_TOKEN. Exit codes: 0 ok, 1 connection or server error,
      64 usage.

      Examples:
        observable sub 'room.*'
        observable pub room.1 '{"temp":21.5}' --retain
        tail -f app.log | observable pub logs -
        observable list
      """,
    subcommands: [
      SubCommand.self, PubCommand.self, ListCommand.self, StatsCommand.self, PingCommand.self,
    ]
  )
}
