import ArgumentParser
import Foundation

/// `--auth-users` and `--auth-rules`: fan-out rows against a server started with a generated
/// `--auth-file`, whose subscribers and publisher authenticate as its users, to measure what
/// authorization costs per delivered message.
struct FanOutAuthOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Fan-out: users of a generated --auth-file the server starts with, comma separated; each"
        + " row runs once per count, in turn (0: no authorization). 0,1000 compares the two.",
      valueName: "n,n,…"))
  var authUsers = "0"

  @Option(help: "Fan-out: allow and deny rules per user of the generated auth file.")
  var authRules = 10

  /// `--auth-users` as counts, or `nil` when one is not a count from 0 to 100,000.
  var parsedUsers: [Int]? {
    let counts = authUsers.split(separator: ",").map {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard !counts.isEmpty, counts.allSatisfy({ (0...100_000).contains($0 ?? -1) }) else {
      return nil
    }
    return counts.compactMap { $0 }
  }

  /// Whether a row uses a generated file at all.
  var authorizes: Bool { parsedUsers?.contains { $0 > 0 } ?? false }

  func validate() throws {
    guard parsedUsers != nil else {
      throw ValidationError("--auth-users \(authUsers): expected counts from 0 to 100000")
    }
    guard (1...64).contains(authRules) else {
      throw ValidationError("--auth-rules must be 1 to 64")
    }
  }

  /// One generated file per user count above zero, by that count (`nil` for 0).
  func files(topic: String) throws(BenchError) -> [Int: BenchAuthFile] {
    var files: [Int: BenchAuthFile] = [:]
    for users in parsedUsers ?? [] where users > 0 && files[users] == nil {
      files[users] = try BenchAuthFile(users: users, rulesPerUser: authRules, topic: topic)
    }
    return files
  }
}
