import Dispatch
import Logging
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemdEnvironmentTests {
  /// The notifier against a test-owned notification socket, exactly as systemd receives.
  @Suite struct SystemdNotifierTests {
    /// Every variable libsystemd's notify and watchdog calls read, so none leaks in.
    static func environment(
      notifySocket: String?, watchdogMicroseconds: String? = nil, watchdogPID: String? = nil
    ) -> [String: String?] {
      [
        "NOTIFY_SOCKET": notifySocket,
        "WATCHDOG_USEC": watchdogMicroseconds,
        "WATCHDOG_PID": watchdogPID,
      ]
    }

    /// Runs `body` with a started event loop for the watchdog's timer, stopped and joined after.
    static func withLoop(_ body: (EventLoop) throws -> Void) throws {
      let loop = try EventLoop(
        name: "watchdog-test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
      try loop.start()
      defer {
        loop.stop()
        loop.join()
      }
      try body(loop)
    }

    @Test func stateMessagesReachTheNotifySocket() throws {
      let receiver = try NotificationReceiver()
      try EnvironmentOverride.with(Self.environment(notifySocket: receiver.path)) {
        let notifier = SystemdNotifier()
        for state in ["READY=1", "STATUS=serving 2 streams", "READY=1\nSTATUS=up", "STOPPING=1"] {
          try #require(notifier.notify(state))
          #expect(receiver.receive(timeout: .seconds(5)) == state)
        }
      }
    }

    @Test func withoutNotifySocketNotifyingDoesNothing() {
      EnvironmentOverride.with(Self.environment(notifySocket: nil)) {
        #expect(!SystemdNotifier().notify("READY=1"))
      }
    }

    @Test func watchdogIntervalFollowsTheEnvironment() {
      let ownPID = String(getpid())
      let cases: [(usec: String?, pid: String?, expected: Duration?)] = [
        ("3000000", ownPID, .seconds(3)),
        ("250000", nil, .milliseconds(250)),
        ("3000000", "1", nil),
        (nil, ownPID, nil),
      ]
      for (usec, pid, expected) in cases {
        let environment = Self.environment(
          notifySocket: nil, watchdogMicroseconds: usec, watchdogPID: pid)
        EnvironmentOverride.with(environment) {
          #expect(
            SystemdNotifier().watchdogInterval == expected,
            "WATCHDOG_USEC=\(usec ?? "-") WATCHDOG_PID=\(pid ?? "-")")
        }
      }
    }

    @Test func watchdogIsNotStartedWhenDisabled() throws {
      try EnvironmentOverride.with(Self.environment(notifySocket: nil)) {
        try Self.withLoop { loop in
          #expect(!SystemdNotifier().startWatchdog(on: loop))
        }
      }
    }

    @Test func watchdogPingsAtHalfTheIntervalUntilStopped() throws {
      let receiver = try NotificationReceiver()
      let environment = Self.environment(
        notifySocket: receiver.path, watchdogMicroseconds: "200000",
        watchdogPID: String(getpid()))
      try EnvironmentOverride.with(environment) {
        try Self.withLoop { loop in
          let notifier = SystemdNotifier()
          let clock = ContinuousClock()
          let start = clock.now
          try #require(notifier.startWatchdog(on: loop))
          for _ in 0..<3 {
            #expect(receiver.receive(timeout: .seconds(5)) == "WATCHDOG=1")
          }
          // Pings at 0, 100 and 200 ms: far enough apart to show it is not spinning.
          #expect(clock.now - start >= .milliseconds(150))
          notifier.stopWatchdog()
          // A ping already running when the timer was cancelled finishes on the loop.
          try loop.submitAndWait {}
          receiver.drain()
          #expect(receiver.receive(timeout: .milliseconds(300)) == nil)
        }
      }
    }

    @Test func aStuckEventLoopHoldsTheWatchdogPingsBack() throws {
      let receiver = try NotificationReceiver()
      let environment = Self.environment(
        notifySocket: receiver.path, watchdogMicroseconds: "100000",
        watchdogPID: String(getpid()))
      try EnvironmentOverride.with(environment) {
        let server = try TestServer { $0.eventLoopCount = 2 }
        defer { server.stop() }
        let systemd = SystemdService()
        systemd.started(server.server)
        defer { systemd.stopping() }
        #expect(receiver.receive(timeout: .seconds(5))?.hasPrefix("READY=1") == true)
        #expect(receiver.receive(timeout: .seconds(5)) == "WATCHDOG=1")
        // Not the loop the timer runs on: the ping itself must wait for every loop.
        let stuck = try #require(server.server.eventLoops.last)
        let blocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        stuck.execute {
          blocked.signal()
          release.wait()
        }
        blocked.wait()
        // A ping whose rounds finished just before the loop stuck may still be on its way.
        _ = receiver.receive(timeout: .milliseconds(100))
        receiver.drain()
        #expect(receiver.receive(timeout: .milliseconds(300)) == nil, "pinged while a loop hung")
        release.signal()
        #expect(receiver.receive(timeout: .seconds(5)) == "WATCHDOG=1")
      }
    }

    @Test func releasingTheNotifierStopsTheWatchdog() throws {
      let receiver = try NotificationReceiver()
      let environment = Self.environment(
        notifySocket: receiver.path, watchdogMicroseconds: "100000",
        watchdogPID: String(getpid()))
      try EnvironmentOverride.with(environment) {
        try Self.withLoop { loop in
          do {
            let notifier = SystemdNotifier()
            try #require(notifier.startWatchdog(on: loop))
            #expect(receiver.receive(timeout: .seconds(5)) == "WATCHDOG=1")
          }
          try loop.submitAndWait {}
          receiver.drain()
          #expect(receiver.receive(timeout: .milliseconds(200)) == nil)
        }
      }
    }
  }
}
