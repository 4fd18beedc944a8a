import Foundation
import Glibc
import Locking
import TestSupport
import Testing

/// The README's `observable` transcript, run command by command against a fresh server, as a
/// reader would type it: each command's output must have the shape printed under it (the same
/// lines and words; numbers, ports and column widths may differ).
@Suite("README: the observable command's transcript", .timeLimit(.minutes(2)))
struct ReadmeTranscriptTests {
  /// One `$ command` of the transcript and the lines printed under it.
  struct Step {
    var command: String
    var expected: [String]
  }

  /// The transcript: the README's ```text block whose first line is `$ observable …`.
  static func transcript() throws -> [Step] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = readme.components(separatedBy: "```text\n").dropFirst()
      .map { String($0.components(separatedBy: "\n```")[0]) }
    let block = try #require(blocks.first { $0.hasPrefix("$ observable ") })
    var steps: [Step] = []
    for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("$ ") {
        steps.append(Step(command: withoutComment(line.dropFirst(2)), expected: []))
      } else if !steps.isEmpty {
        steps[steps.count - 1].expected.append(String(line))
      }
    }
    return steps
  }

  /// The command without its trailing `# comment` (two spaces or more, then `#`).
  static func withoutComment(_ line: Substring) -> String {
    guard let range = line.range(of: "  #") else { return String(line) }
    return String(line[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
  }

  /// A line's shape: every run of digits is `9`, every run of blanks one space.
  static func shape(_ line: String) -> String {
    var out = ""
    var previous: Character = "\0"
    for character in line.trimmingCharacters(in: .whitespaces) {
      let mapped: Character = character.isNumber ? "9" : (character == " " ? " " : character)
      if mapped == previous, mapped == "9" || mapped == " " { continue }
      out.append(mapped)
      previous = mapped
    }
    return out
  }

  @Test("the transcript is read as commands with output")
  func parsed() throws {
    let steps = try Self.transcript()
    #expect(steps.count >= 8)
    #expect(steps.allSatisfy { $0.command.contains("observable ") })
    #expect(Self.shape("pong from 127.0.0.1:7070 in 1502 µs") == "pong from 9.9.9.9:9 in 9 µs")
    #expect(Self.withoutComment("observable list   # --json") == "observable list")
  }

  @Test("each command prints what the README shows")
  func transcriptHolds() throws {
    let server = try LocalServer()
    let bin = BuiltProduct.url("observable").deletingLastPathComponent().path
    for step in try Self.transcript() {
      let output = try ShellCommand(
        step.command, path: bin, environment: ["OBSERVABLE_SERVER": server.address]
      ).output
      let lines = output.split(separator: "\n").map(String.init)
      #expect(
        lines.map(Self.shape) == step.expected.map(Self.shape),
        "$ \(step.command)\nprinted:\n\(output)")
    }
  }
}

/// One shell command line run to its end (at most 20 s) with its stdout and stderr together.
/// The output is collected as it comes, so a child left holding the pipe cannot block the test.
struct ShellCommand {
  let output: String

  init(_ command: String, path: String, environment: [String: String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " 2>&1"]
    var variables = ProcessInfo.processInfo.environment.filter {
      !$0.key.hasPrefix("OBSERVABLE_SERVER")
    }
    variables["PATH"] = path + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
    process.environment = variables.merging(environment) { $1 }
    let collected = Locked((data: Data(), ended: false))
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    pipe.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      collected.withLock { state in
        if data.isEmpty { state.ended = true } else { state.data.append(data) }
      }
      if data.isEmpty { handle.readabilityHandler = nil }
    }
    try process.run()
    if !eventually(timeout: .seconds(20), { !process.isRunning }) {
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    _ = eventually(timeout: .seconds(2)) { collected.withLock { $0.ended } }
    output = collected.withLock { String(decoding: $0.data, as: UTF8.self) }
  }
}
