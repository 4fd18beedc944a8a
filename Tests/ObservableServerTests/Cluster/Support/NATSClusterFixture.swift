import Foundation
import Glibc
import TestSupport
import XCTest

@testable import ObservableServer

/// Three `nats-server` processes with JetStream, clustered on loopback on free ports with their
/// own store directories, and monitoring ports to find the stream leader. Every process is
/// killed and reaped when the test ends.
final class NATSClusterFixture {
  /// Where Debian installs the server.
  static let executable = "/usr/sbin/nats-server"

  /// The client ports, `n1` to `n3`.
  let clientPorts: [UInt16]
  private let monitorPorts: [UInt16]
  private let processes: [Process]
  private let directory: URL

  /// Starts the cluster and waits until every node accepts clients and JetStream has a
  /// meta leader.
  init(_ test: XCTestCase, extraConfiguration: String = "") throws {
    try RequiredTool.require(
      FileManager.default.isExecutableFile(atPath: Self.executable),
      "nats-server (apt-get install nats-server)")
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("obs-cluster-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let ports = try (0..<9).map { _ in try freeLoopbackPort() }
    clientPorts = Array(ports[0..<3])
    monitorPorts = Array(ports[3..<6])
    let routes = ports[6..<9].map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
    var processes: [Process] = []
    for index in 0..<3 {
      let name = "n\(index + 1)"
      let file = directory.appendingPathComponent("\(name).conf")
      try """
      server_name: \(name)
      listen: 127.0.0.1:\(clientPorts[index])
      http: 127.0.0.1:\(monitorPorts[index])
      jetstream { store_dir: "\(directory.path)/store-\(name)", max_memory_store: 64MB, max_file_store: 256MB }
      cluster { name: obs, listen: 127.0.0.1:\(ports[6 + index]), routes: [\(routes)] }
      \(extraConfiguration)
      """.write(to: file, atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Self.executable)
      process.arguments = [
        "-c", file.path, "-l", directory.appendingPathComponent("\(name).log").path,
      ]
      try process.run()
      processes.append(process)
    }
    self.processes = processes
    let cleanup = { [processes, directory] in
      for process in processes where process.isRunning {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
      try? FileManager.default.removeItem(at: directory)
    }
    test.addTeardownBlock(cleanup)
    for port in clientPorts {
      guard
        eventually(
          timeout: .seconds(10), { (try? LineClient(port: port, readGreeting: false)) != nil })
      else { throw ClusterTestFailure("nats-server on \(port) did not start") }
    }
    guard eventually(timeout: .seconds(10), { monitor(0, "/jsz")?.contains("\"leader\"") == true })
    else { throw ClusterTestFailure("JetStream elected no meta leader") }
  }

  /// The `nats://` URL of node `index`.
  func url(_ index: Int) -> String { "nats://127.0.0.1:\(clientPorts[index])" }

  /// Kills node `index` with SIGKILL and reaps it.
  func kill(_ index: Int) {
    let process = processes[index]
    guard process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Sends `number` to node `index`, such as SIGSTOP to make it silent with its sockets open.
  func signal(_ index: Int, _ number: Int32) {
    if processes[index].isRunning { Glibc.kill(processes[index].processIdentifier, number) }
  }

  /// The index of the node leading `stream`, from a live node's monitoring endpoint.
  func streamLeader(_ stream: String) -> Int? {
    for index in 0..<3 where processes[index].isRunning {
      guard let text = monitor(index, "/jsz?streams=true"),
        let range = text.range(
          of: #""name":\s*"\#(stream)"[\s\S]*?"leader":\s*"n(\d)""#,
          options: .regularExpression)
      else { continue }
      let digit = text[range].reversed().first { $0.isNumber }
      return digit.flatMap { Int(String($0)) }.map { $0 - 1 }
    }
    return nil
  }

  /// The body of a monitoring endpoint of node `index`, through curl, bounded in time.
  private func monitor(_ index: Int, _ path: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "-m", "2", "http://127.0.0.1:\(monitorPorts[index])\(path)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// A test's own failure with a message.
struct ClusterTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
