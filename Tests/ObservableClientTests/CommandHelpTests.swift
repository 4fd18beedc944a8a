import Testing

/// `observable --help` and each subcommand's, as a person reads them in a terminal.
@Suite("The observable command: --help wraps cleanly", .timeLimit(.minutes(1)))
struct CommandHelpTests {
  static let commands = [
    [], ["sub"], ["pub"], ["clear"], ["list"], ["stats"], ["ping"], ["history"],
  ]

  @Test(
    "every help text fits the width and breaks a paragraph only where the next word did not fit",
    arguments: [80, 120])
  func wrapsCleanly(width: Int) throws {
    for command in Self.commands {
      let run = try CommandRun(command + ["--help"], environment: ["COLUMNS": "\(width)"])
      #expect(run.status == 0, "\(command)")
      #expect(run.stdout.contains("USAGE:"), "\(command)")
      let faults = HelpLayout.faults(run.stdout, width: width)
      #expect(faults.isEmpty, "observable \(command.joined(separator: " ")) --help:\n\(faults)")
    }
  }

  @Test("the check finds a sentence broken in its source and a line past the width")
  func checkFindsRaggedText() {
    let ragged = """
        The server is --server, else $OBSERVABLE_SERVER; the token
        is --token.
      """
    #expect(HelpLayout.faults(ragged, width: 80).count == 1)
    #expect(HelpLayout.faults(String(repeating: "x", count: 81), width: 80).count == 1)
    let clean = """
      The server is --server, else $OBSERVABLE_SERVER, else 127.0.0.1:7070; the token
      is --token, else $OBSERVABLE_SERVER_TOKEN.

      OPTIONS:
        --server <server>       The server's address: host:port, [v6addr]:port or
                                unix:/path.
        -h, --help              Show help information.

      Examples:
        $ observable sub 'room.*'
        $ observable list
      """
    #expect(HelpLayout.faults(clean, width: 80).isEmpty)
  }
}

/// What makes a help text read raggedly at a terminal width.
///
/// A paragraph of prose wrapped for `width` breaks a line only where the next word would not
/// fit on it with the last column left free. A break where it would have fit comes from a line break in the source text, which
/// breaks the sentence there at every width. Lines of a paragraph are consecutive lines of prose
/// with the same indentation; rows of a table (with a run of two spaces inside, as options and
/// subcommands are listed) and example commands (starting with `$`) stand alone.
enum HelpLayout {
  /// Each line wider than `width`, and each pair of lines broken before it had to be.
  static func faults(_ text: String, width: Int) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var faults = lines.filter { $0.count > width }.map { "wider than \(width): \($0)" }
    for (line, next) in zip(lines, lines.dropFirst())
    where isProse(line) && isProse(next) && indentation(line) == indentation(next) {
      let word = next.drop { $0 == " " }.prefix { $0 != " " }
      // ArgumentParser keeps the last column free (a word ending there goes to the next
      // line), as a terminal that wraps on writing the last column needs; so must the check.
      if line.count + 1 + word.count < width {
        faults.append("broken early:\n\(line)\n\(next)")
      }
    }
    return faults
  }

  private static func isProse(_ line: String) -> Bool {
    let text = line.drop { $0 == " " }
    return !text.isEmpty && !text.hasPrefix("$") && !text.contains("  ")
  }

  private static func indentation(_ line: String) -> Int {
    line.prefix { $0 == " " }.count
  }
}
