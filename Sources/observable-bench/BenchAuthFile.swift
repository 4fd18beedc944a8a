import Foundation
import Glibc
import ObservableCredentials

/// A generated `--auth-file` of `users` users with `rulesPerUser` rules each, for measuring what
/// authorization costs the fan-out (`--auth-users`, `--auth-rules`).
///
/// Every user's rules look like a real deployment's: allow lists with `{user}` subtrees and `*`
/// and `>` wildcards that do not match the measured topic, then the one allow rule that does,
/// last, so that a decision tries every rule before it; and deny rules that must be checked
/// for the topic and do not match it. Tokens are made as `observable-server token` makes them
/// (``NewToken``), and the file keeps only their digests, in the server's own format. The file
/// is removed when the last scenario that uses it is gone.
final class BenchAuthFile: Sendable {
  let path: String
  let users: Int
  let rulesPerUser: Int
  /// Each user's token in clear, as the benchmark's clients send it.
  private let tokens: [String]

  /// Writes the file for `users` users whose rules allow subscribing and publishing to `topic`.
  init(users: Int, rulesPerUser: Int, topic: String) throws(BenchError) {
    self.users = users
    self.rulesPerUser = rulesPerUser
    path = "/tmp/observable-bench-auth-\(getpid())-\(users)x\(rulesPerUser).json"
    let made = (0..<users).map { _ in NewToken() }
    tokens = made.map(\.token)
    var text = #"{"users": {"# + "\n"
    for (index, token) in made.enumerated() {
      let subscribe = Self.rules(count: (rulesPerUser + 1) / 2, user: index, topic: topic)
      let publish = Self.rules(count: rulesPerUser / 2, user: index + 7, topic: topic)
      text += #"  "\#(Self.name(index))": {\#(token.fileLine), "subscribe": \#(subscribe), "#
      text += #""publish": \#(publish)}\#(index == users - 1 ? "" : ",")"# + "\n"
    }
    text += "}}\n"
    try Self.write(text, to: path)
  }

  deinit { unlink(path) }

  /// The name of user `index`: `u0000`, `u0001`, …
  static func name(_ index: Int) -> String {
    let digits = String(index)
    return "u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The `auth` line of the benchmark's connection `connection`: each connection a user of its
  /// own while there are enough, so that each keeps its own decisions.
  func authLine(connection: Int) -> String {
    let user = connection % users
    return #"{"op":"auth","user":"\#(Self.name(user))","token":"\#(tokens[user])"}"#
  }

  /// Allows that miss `topic`, wildcards and `{user}` among them.
  private static let missingAllows = [
    "user.{user}.>", "room.*.chat", "device.*.{user}.status", "news.>", "inbox.{user}",
    "alerts.*.critical", "metrics.{user}.*", "orders.eu.*.created",
  ]
  /// Denies that `topic` must be checked against and that do not match it.
  private static let missingDenies = [
    "*.private", "room.admin.>", "user.{user}.secret", "team.*.payroll",
  ]

  /// `{"allow": […], "deny": […]}` with `count` rules: about a quarter denies, the rest allows
  /// of which only the last matches `topic`; `user` varies which templates a user gets.
  private static func rules(count: Int, user: Int, topic: String) -> String {
    guard count > 0 else { return "[]" }
    let denies = count >= 2 ? max(1, count / 4) : 0
    let allows = count - denies
    let allow =
      (0..<(allows - 1)).map { missingAllows[(user + $0) % missingAllows.count] } + [topic]
    let deny = (0..<denies).map { missingDenies[(user + $0) % missingDenies.count] }
    func list(_ patterns: [String]) -> String {
      "[" + patterns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
    return #"{"allow": \#(list(allow)), "deny": \#(list(deny))}"#
  }

  /// Writes `text` to a file only this user may read: it is full of token digests.
  private static func write(_ text: String, to path: String) throws(BenchError) {
    let written = FileManager.default.createFile(
      atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    guard written else { throw .refused("cannot write the auth file \(path)") }
  }
}
