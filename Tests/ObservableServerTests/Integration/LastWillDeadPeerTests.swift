import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// A peer that vanishes (its link goes down: no FIN, no RST) has its will published once the
/// dead-peer timeout finds it gone.
@Suite(
  "Last will of a vanished peer", .serialized, .timeLimit(.minutes(2)),
  .enabled(
    if: RequiredTool.runs(TestNetwork.isAvailable), "needs root and ip to make network namespaces"
  ))
struct LastWillDeadPeerTests {
  @Test func aVanishedPeersWillIsPublishedOnceAfterTheTimeout() throws {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork()
    let timeout = 3
    let server = try NamespacedServer(network, name: "will-dead-peer", deadPeerTimeout: timeout)
    let local = try server.localClient()
    let watcher = try WillWatcher(client: try server.localClient(), pattern: "status.remote")

    let remote = try RemoteClient(network, lines: ["will status.remote vanished"])
    #expect(
      eventually(timeout: .seconds(10)) { (try? local.stats()["connections"]) == 3 },
      "\(server.process.output)")
    try network.cutClientLink()
    let seen = watcher.wait(forCount: 1, timeout: .seconds(timeout + 10), settle: .seconds(1))
    #expect(seen.map { $0.value as? String } == ["vanished"], "\(seen) \(server.process.output)")
    let stats = try local.stats()
    #expect(stats["dead_peers_total"] == 1, "\(server.process.output)")
    #expect(stats["wills_published_total"] == 1)
    _ = remote
  }

  /// Clients whose link comes back and who then close, some before the dead-peer timeout has
  /// found them gone and some after: each will is published once, by whichever came first.
  @Test func aCloseRacingTheDeadPeerTimeoutPublishesEachWillOnce() throws {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork()
    let timeout = 3
    let server = try NamespacedServer(network, name: "will-race", deadPeerTimeout: timeout)
    let local = try server.localClient()
    let watcher = try WillWatcher(client: try server.localClient(), pattern: "race.>")
    let count = 8
    let remotes = try (0..<count).map {
      try RemoteClient(network, lines: ["will race.\($0) gone"])
    }
    #expect(
      eventually(timeout: .seconds(10)) { (try? local.stats()["connections"]) == count + 2 },
      "\(server.process.output)")
    try network.cutClientLink()
    let cut = ContinuousClock.now
    // The timeout finds a peer gone from 3 s after the cut to about a probe interval later;
    // the link comes back at 3 s, and the clients close one by one over the next second: those
    // not found gone yet end by their close, the others were closed by the timeout already.
    for (index, remote) in remotes.enumerated() {
      let wait = cut + .seconds(timeout) + .milliseconds(index * 150) - .now
      if wait > .zero { usleep(UInt32(wait.components.attoseconds / 1_000_000_000_000)) }
      if index == 0 { try network.restoreClientLink() }
      remote.end()
    }
    let seen = watcher.wait(forCount: count, timeout: .seconds(timeout + 10), settle: .seconds(1))
    #expect(seen.count == count, "\(seen.map(\.stream)) \(server.process.output)")
    #expect(Set(seen.map(\.stream)).count == count)
    let stats = try local.stats()
    #expect(stats["wills_published_total"] == count, "dead: \(stats["dead_peers_total"] ?? 0)")
  }
}

/// A WebSocket peer that never answers pings and sends its close frame around the moment its
/// ping deadline passes: whichever ends the connection first, the will is published once.
@Suite("Last will when a close races the dead-peer timeout", .timeLimit(.minutes(1)))
struct LastWillRaceTests {
  @Test func aCloseRacingThePingDeadlinePublishesEachWillOnce() throws {
    let interval = Duration.milliseconds(200)
    let server = try TestServer.withHTTP { $0.webSocketPingInterval = interval }
    let watcher = try WillWatcher(port: server.port, pattern: "race.>")
    let count = 24
    // Each client sends its close frame between 250 and 550 ms after its upgrade, around its
    // ping deadline (a ping after 200 ms, unanswered after 200 more): some close first, some
    // are found dead first, and some meet the deadline within a turn of the loop.
    for index in 0..<count {
      let client = try LineClient(port: server.httpPort, readGreeting: false)
      #expect(try client.upgradeToWebSocket() != nil)
      let upgraded = ContinuousClock.now
      try client.sendRaw(ClientFrames.text("will race.\(index) gone"))
      let wait = upgraded + .milliseconds(250 + (index % 13) * 25) - .now
      if wait > .zero { usleep(UInt32(wait.components.attoseconds / 1_000_000_000_000)) }
      try? client.sendRaw(ClientFrames.normalClose)
    }
    let seen = watcher.wait(forCount: count, settle: .seconds(1))
    #expect(seen.count == count, "\(seen.map(\.stream))")
    #expect(Set(seen.map(\.stream)).count == count)
    let counters = server.server.counters.snapshot
    #expect(counters.willsPublishedTotal == count)
    // Both endings happened: some connections were found dead first, some closed first.
    #expect(
      (1..<count).contains(counters.deadPeersTotal),
      "\(counters.deadPeersTotal) of \(count) found dead")
  }
}
