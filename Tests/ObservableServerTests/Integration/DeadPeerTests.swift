import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// A subscriber whose network vanishes (no FIN, no RST: the link goes down) is dropped within
/// the dead-peer timeout, and its disconnects run, whether it was idle or had values in flight.
@Suite(
  "Dead peers", .serialized, .timeLimit(.minutes(2)),
  .enabled(
    if: RequiredTool.runs(TestNetwork.isAvailable), "needs root and ip to make network namespaces"
  ))
struct DeadPeerTests {
  @Test func vanishedSubscribersAreDroppedWithinTheTimeout() throws {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork()
    let timeout = 3
    let server = try NamespacedServer(network, name: "dead-peer", deadPeerTimeout: timeout)
    let local = try server.localClient()

    // One subscriber that only waits, one on a topic that keeps sending.
    let idle = try RemoteClient(network, lines: ["subscribe quiet"])
    let busy = try RemoteClient(network, lines: ["subscribe busy"])
    #expect(
      eventually(timeout: .seconds(10)) { (try? local.stats()["subscriptions"]) == 2 },
      "\(server.process.output)")
    let publisher = Publisher(socketPath: server.socketPath)
    defer { publisher.stop() }

    // While the link is up, silence is not death: both outlive the timeout.
    let healthyUntil = ContinuousClock.now + .seconds(timeout + 2)
    while ContinuousClock.now < healthyUntil {
      #expect(try local.stats()["subscriptions"] == 2)
      usleep(250_000)
    }

    try network.cutClientLink()
    let cut = ContinuousClock.now
    // Keepalive probes take the timeout plus up to a probe interval; the margin is for a busy
    // machine.
    #expect(
      eventually(timeout: .seconds(timeout + 10)) {
        (try? local.stats()["subscriptions"]) == 0
      }, "still subscribed \(ContinuousClock.now - cut) after the link went down")
    let stats = try local.stats()
    #expect(stats["dead_peers_total"] == 2, "\(server.process.output)")
    // Every subscription made has been disconnected, the one this read makes aside.
    #expect(stats["subscribes_total"].map { $0 - 1 } == stats["disconnects_total"])
    #expect(stats["connections"] == 2, "the local client and the publisher remain")
    _ = idle
    _ = busy
    _ = server
  }
}

/// Publishes 1 KB values to `busy` a hundred times a second over the Unix socket, so the
/// vanished busy subscriber has data in flight that nobody acknowledges.
private final class Publisher: @unchecked Sendable {
  // Unchecked: `running` is only read by the publishing thread and set once by `stop()`,
  // behind the lock.
  private let running = NSLock()
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  init(socketPath: String) {
    let thread = Thread { [self] in
      defer { done.signal() }
      guard let client = try? LineClient(.unix(path: socketPath)) else { return }
      let value = String(repeating: "x", count: 1000)
      while !isStopped {
        try? client.send("publish busy \"\(value)\"")
        _ = try? client.readReply()
        usleep(10_000)
      }
    }
    thread.start()
  }

  private var isStopped: Bool {
    running.lock()
    defer { running.unlock() }
    return stopped
  }

  func stop() {
    running.lock()
    stopped = true
    running.unlock()
    done.wait()
  }
}
