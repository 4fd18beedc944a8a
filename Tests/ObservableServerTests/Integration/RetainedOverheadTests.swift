import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// `--max-retained-bytes` bounds what retained values really cost, topics included: with values
/// of one byte, counting value bytes only let the server grow by six to twelve times the budget.
@Suite("Retained values are charged what they cost", .serialized, .timeLimit(.minutes(3)))
struct RetainedOverheadTests {
  static let budget = 8 << 20

  @Test func manySmallRetainedValuesStayWithinTwiceTheBudget() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "error",
      "--max-retained-bytes", "\(Self.budget)",
    ])
    try #require(eventually { (try? LineClient(port: port)) != nil })
    let client = try LineClient(port: port)
    let start = try #require(server.residentBytes)
    var accepted = 0
    var refused = false
    // Counting value lines only, 8 MiB take 262,144 topics named `t.N` with the value 1.
    batches: for first in stride(from: 0, to: 300_000, by: 1000) {
      let lines = (first..<first + 1000).map { "retain t.\($0) 1\n" }.joined()
      try client.sendRaw(Array(lines.utf8))
      for _ in 0..<1000 {
        let reply = try client.readReply(timeout: .seconds(20))
        if reply["ok"] as? Bool == true {
          accepted += 1
        } else if (reply["error"] as? [String: Any])?["code"] as? String == "limit_exceeded" {
          refused = true
        }
      }
      if refused { break batches }
    }
    #expect(refused, "\(accepted) retained values, none refused")
    // Each topic kept costs hundreds of bytes, so the budget ends long before value bytes do.
    #expect(accepted < Self.budget / 200, "\(accepted) topics accepted")
    let grown = try #require(server.residentBytes) - start
    #expect(grown < 2 * Self.budget, "RSS grew \(grown) bytes for a \(Self.budget)-byte budget")
  }
}
