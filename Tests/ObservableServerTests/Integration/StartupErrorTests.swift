import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// What the server says when it cannot start or is started wrongly.
@Suite("Startup errors", .timeLimit(.minutes(1)))
struct StartupErrorTests {
  @Test func aTakenAddressIsNamedInTheError() throws {
    let taken = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 1)
    defer { close(taken) }
    let port = try #require(SocketCalls.boundPort(taken))
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:\(port)"])
    #expect(server.waitForExit(timeout: .seconds(10)) == 1)
    #expect(server.output.contains("cannot start"), "\(server.output)")
    #expect(server.output.contains("127.0.0.1:\(port)"), "\(server.output)")
  }

  @Test(arguments: [["--cluster-replicas", "9"], ["--cluster-prefix", "other"]])
  func aClusterFlagWithoutClusterIsAUsageError(_ flag: [String]) throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"] + flag)
    #expect(server.waitForExit(timeout: .seconds(10)) == 64, "\(server.output)")
    #expect(server.output.contains("\(flag[0]) needs --cluster"), "\(server.output)")
  }
}
