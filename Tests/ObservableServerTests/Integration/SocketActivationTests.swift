import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// The executable under the real `systemd-socket-activate`, which opens the sockets, waits for
/// the first connection and then execs the server in its own place (same pid), as systemd
/// does for a `.socket` unit. Notifications go to a test-owned `NOTIFY_SOCKET`.
///
/// `systemd-socket-activate` hands its child only a few variables of its own environment, so
/// everything the server should see is passed with `--setenv`; the test process's own
/// environment is never changed.
@Suite("Socket activation with systemd-socket-activate", .timeLimit(.minutes(1)))
struct SocketActivationTests {
  static let launcher = "/usr/bin/systemd-socket-activate"

  /// A launcher listening on a free loopback port (and `unixPath`, when given), retried on
  /// another port when something else took the first one meanwhile.
  struct Activation {
    let process: ServerProcess
    let port: UInt16
  }

  static func activate(
    unixPath: String? = nil,
    datagram: Bool = false,
    names: String,
    environment: [String: String] = [:],
    serverArguments: [String] = []
  ) throws -> Activation {
    var lastOutput = ""
    for _ in 0..<5 {
      let port = try freeLoopbackPort()
      var arguments = [launcher, "--listen=127.0.0.1:\(port)"]
      if let unixPath { arguments.append("--listen=\(unixPath)") }
      if datagram { arguments.append("--datagram") }
      arguments.append("--fdname=\(names)")
      for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
        arguments.append("--setenv=\(name)=\(value)")
      }
      let process = try ServerProcess(arguments: serverArguments, launcher: arguments)
      let last = "Listening on \(unixPath ?? "127.0.0.1:\(port)")"
      _ = eventually(timeout: .seconds(10)) {
        process.output.contains(last) || !process.process.isRunning
      }
      if process.output.contains(last), process.process.isRunning {
        return Activation(process: process, port: port)
      }
      lastOutput = process.output
      if let unixPath { unlink(unixPath) }
    }
    throw LineClient.Timeout(description: "systemd-socket-activate did not start: \(lastOutput)")
  }

  /// Collects notifications until one satisfies `predicate`; `nil` when none does in time.
  static func notification(
    from receiver: NotificationReceiver,
    timeout: Duration = .seconds(10),
    seen: inout [String],
    where predicate: (String) -> Bool
  ) -> String? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      guard let message = receiver.receive(timeout: min(deadline - .now, .seconds(1))) else {
        continue
      }
      seen.append(message)
      if predicate(message) { return message }
    }
    return nil
  }

  @Test func servesEveryHandedSocketBindsNothingItselfAndNotifies() throws {
    let receiver = try NotificationReceiver()
    let unixPath = temporarySocketPath("activated")
    defer { unlink(unixPath) }
    // The server is told to listen elsewhere too; with sockets handed over, it must not.
    let ignoredPort = try freeLoopbackPort()
    let activation = try Self.activate(
      unixPath: unixPath, names: "tcp:unix", environment: ["NOTIFY_SOCKET": receiver.path],
      serverArguments: ["--listen", "127.0.0.1:\(ignoredPort)"])
    let server = activation.process
    let launcherPID = server.process.processIdentifier

    // The first connection starts the server, which then accepts it.
    let overTCP = try LineClient(port: activation.port)
    #expect(overTCP.greeting["hello"] as? String == "observable-server", "\(server.output)")
    let overUnix = try LineClient(.unix(path: unixPath))
    #expect(try overTCP.request("subscribe activated")["ok"] as? Bool == true)
    #expect(try overUnix.request("publish activated via unix")["receivers"] as? Int == 1)
    #expect(try overTCP.readJSON()["value"] as? String == "via unix")

    var seen: [String] = []
    let ready = Self.notification(from: receiver, seen: &seen) { $0.contains("READY=1") }
    #expect(ready?.contains("STATUS=serving") == true, "\(seen)")
    // STATUS= follows the connection count, every two seconds when it changed.
    let status = Self.notification(from: receiver, seen: &seen) {
      $0.contains("STATUS=serving 2 connections")
    }
    #expect(status != nil, "\(seen)")

    #expect(server.process.processIdentifier == launcherPID)
    #expect(server.output.contains("Execing"), "the launcher execs the server in its place")
    #expect(server.output.contains(#"address="tcp (fd 3"#), "\(server.output)")
    #expect(server.output.contains(#"address="unix (fd 4"#), "\(server.output)")
    let listening = server.output.split(separator: "\n").filter { $0.contains(#"msg="listening""#) }
    #expect(listening.count == 2, "\(server.output)")
    #expect(!listening.contains { $0.contains(":\(ignoredPort)") }, "\(server.output)")
    #expect(throws: (any Error).self) { try LineClient(port: ignoredPort) }

    server.signal(SIGTERM)
    let stopping = Self.notification(from: receiver, seen: &seen) { $0.contains("STOPPING=1") }
    #expect(stopping != nil, "\(seen)")
    #expect(server.waitForExit(timeout: .seconds(5)) == 0, "\(server.output)")
    #expect(overTCP.waitForClose())
    #expect(overUnix.waitForClose())
  }

  @Test func watchdogPingsArriveAtHalfTheInterval() throws {
    let receiver = try NotificationReceiver()
    // 600 ms: pings every 300 ms. WATCHDOG_PID is unset, which means "this process".
    let activation = try Self.activate(
      names: "tcp", environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "600000"])
    let server = activation.process
    let client = try LineClient(port: activation.port)
    #expect(try client.request("ping")["ok"] as? Bool == true)

    var seen: [String] = []
    let ready = Self.notification(from: receiver, seen: &seen) { $0.contains("READY=1") }
    try #require(ready != nil, "\(seen) \(server.output)")
    let counting = ContinuousClock.now
    let pings = (0..<4).compactMap { _ in
      Self.notification(from: receiver, timeout: .seconds(3), seen: &seen) { $0 == "WATCHDOG=1" }
    }
    let elapsed = ContinuousClock.now - counting
    #expect(pings.count == 4, "\(seen)")
    // Four pings at 300 ms take about 0.9 to 1.2 s; at the full interval they would take 2.4 s.
    #expect(elapsed < .milliseconds(2_000), "\(elapsed)")

    server.signal(SIGTERM)
    #expect(Self.notification(from: receiver, seen: &seen) { $0.contains("STOPPING=1") } != nil)
    #expect(server.waitForExit(timeout: .seconds(5)) == 0, "\(server.output)")
  }

  @Test func watchdogAddressedToAnotherProcessStaysQuiet() throws {
    let receiver = try NotificationReceiver()
    let activation = try Self.activate(
      names: "tcp",
      environment: [
        "NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1",
      ])
    let server = activation.process
    let client = try LineClient(port: activation.port)
    #expect(try client.request("ping")["ok"] as? Bool == true)
    var seen: [String] = []
    #expect(Self.notification(from: receiver, seen: &seen) { $0.contains("READY=1") } != nil)
    let ping = Self.notification(from: receiver, timeout: .seconds(1), seen: &seen) {
      $0.contains("WATCHDOG=1")
    }
    #expect(ping == nil, "\(seen)")
    server.signal(SIGTERM)
    #expect(server.waitForExit(timeout: .seconds(5)) == 0, "\(server.output)")
  }

  @Test func datagramSocketIsRefusedWithAMessageNamingTheDescriptor() throws {
    let activation = try Self.activate(datagram: true, names: "metrics")
    let server = activation.process
    // A datagram on the socket is what makes the launcher start the server.
    let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    try #require(sender >= 0)
    defer { close(sender) }
    let destination = try SocketAddress(.tcp(host: "127.0.0.1", port: activation.port))
    let sent = try destination.withSockaddr { address, length in
      sendto(sender, "hello", 5, 0, address, length)
    }
    try #require(sent == 5)

    let status = server.waitForExit(timeout: .seconds(10))
    #expect(status != nil && status != 0, "\(server.output)")
    #expect(
      server.output.contains(#"file descriptor 3 (\"metrics\")"#), "\(server.output)")
    #expect(server.output.contains("not a listening stream socket"), "\(server.output)")
  }

  @Test func handedSocketsWithoutALoadableLibsystemdAreAClearError() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-libsystemd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("not a shared library\n".utf8)
      .write(to: directory.appendingPathComponent("libsystemd.so.0"))

    let activation = try Self.activate(
      names: "tcp", environment: ["LD_LIBRARY_PATH": directory.path])
    let server = activation.process
    let client = try LineClient(port: activation.port, readGreeting: false)
    defer { client.close() }

    let status = server.waitForExit(timeout: .seconds(10))
    #expect(status != nil && status != 0, "\(server.output)")
    #expect(
      server.output.contains("LISTEN_FDS is set but libsystemd.so.0 could not be loaded"),
      "\(server.output)")
    #expect(client.waitForClose(), "the handed socket closes with the server")
  }
}
