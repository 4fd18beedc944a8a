import Foundation
import TestSupport
import Testing

@testable import ObservableClient

/// The client's last will: registered with the server, registered again after a reconnect,
/// withdrawn on request, and set from the command line.
@Suite("Client last will", .timeLimit(.minutes(1)))
struct ClientWillTests {
  @Test func aWillIsPublishedWhenTheConnectionDropsAndRegisteredAgain() async throws {
    let server = try LocalServer()
    let watcher = try await server.client()
    defer { watcher.close() }
    let seen = Received<String>()
    let watching = watcher.stream("device.status", as: String.self).subscribe { seen.append($0) }
    defer { watching.unsubscribe() }
    let device = try await server.client()
    defer { device.close() }
    try await device.setWill("device.status", "offline")
    #expect(try await device.publish("device.status", "online") == 1)
    #expect(await eventually { seen.all == ["online"] })

    // The connection drops under the client: the server publishes the will, and the client
    // registers it again on the connection it makes next.
    device.core.writer.withLock { $0?.shutDown() }
    #expect(await eventually { seen.all == ["online", "offline"] })
    #expect(await eventually { device.core.state.withLock { $0.sent["will"] } == 2 })
    #expect(try await device.publish("device.status", "online") == 1)
    device.close()
    #expect(await eventually { seen.all == ["online", "offline", "online", "offline"] })
  }

  @Test func aWithdrawnWillIsNotPublished() async throws {
    let server = try LocalServer()
    let device = try await server.client()
    try await device.setWill("device.gone", ["up": false], retain: true)
    try await device.withdrawWill()
    // Withdrawing twice is harmless.
    try await device.withdrawWill()
    device.close()
    let later = try await server.client()
    defer { later.close() }
    // Once the server has closed the device's connection, it has published no will.
    let stats = Received<[String: Int]>()
    let watching = later.stream("stats", as: [String: Int].self).subscribe { stats.append($0) }
    defer { watching.unsubscribe() }
    #expect(await eventually { stats.all.last?["connections"] == 1 })
    #expect(stats.all.last?["wills_published_total"] == 0)
    #expect(try await later.list(matching: "device.gone").isEmpty)
  }

  @Test func aRefusedWillIsForgotten() async throws {
    let server = try LocalServer()
    let device = try await server.client()
    defer { device.close() }
    await #expect(throws: ClientError.self) { try await device.setWill("clock", "x") }
    #expect(device.core.state.withLock { $0.will } == nil)
  }

  @Test func pubRegistersAWillFromTheCommandLine() async throws {
    let server = try LocalServer()
    let watcher = try await server.client()
    defer { watcher.close() }
    let run = try CommandRun(
      ["pub", "room.1", "21.5", "--will", "room.1.status=offline", "--will-retain"],
      port: server.port)
    #expect(run.status == 0, "\(run.stderr)")
    let retained = Received<String>()
    let watching = watcher.stream("room.1.status", as: String.self).subscribe {
      retained.append($0)
    }
    defer { watching.unsubscribe() }
    #expect(await eventually { retained.all == ["offline"] })
    let bad = try CommandRun(["pub", "room.1", "1", "--will", "nothing"], port: server.port)
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--will takes NAME=VALUE"), "\(bad.stderr)")
  }
}
