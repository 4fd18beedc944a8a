import ArgumentParser
import ObservableClient

/// `observable`: subscribe, publish, clear, list and ping an observable-server from a terminal.
@main
struct ObservableCommand: AsyncParsableCommand {
  // Each paragraph of the discussion is one line of source (a trailing `\` joins the lines), so
  // that ArgumentParser wraps it at the terminal's width; a line break in the text would break
  // the sentence there at any width.
  static let configuration = CommandConfiguration(
    commandName: "observable",
    abstract: "Subscribe to, publish to and inspect an observable-server.",
    discussion: """
      The server is --server, else $OBSERVABLE_SERVER, else 127.0.0.1:7070; the token is \
      --token, else $OBSERVABLE_SERVER_TOKEN. Options follow the subcommand. Exit codes: 0 ok, \
      1 connection or server error, 64 usage.

      Examples:
        $ observable sub 'room.*'
        $ observable pub room.1 '{"temp":21.5}' --retain
        $ observable clear room.1
        $ tail -f app.log | observable pub logs -
        $ observable list
        $ observable history room.1 --limit 10
      """,
    version: ObservableClient.version,
    subcommands: [
      SubCommand.self, PubCommand.self, ClearCommand.self, ListCommand.self, StatsCommand.self,
      PingCommand.self, HistoryCommand.self,
    ]
  )
}
