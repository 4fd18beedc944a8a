import TestSupport

/// What one run of the `observable` command left: its exit status and its output.
struct CommandRun {
  let status: Int32?
  let stdout: String
  let stderr: String

  /// The lines of stdout, without empty ones.
  var lines: [String] { stdout.split(separator: "\n").map(String.init) }

  /// Runs `observable` with `arguments` to its end, with `$OBSERVABLE_SERVER` naming `port` on
  /// 127.0.0.1 when given, plus `environment`.
  init(_ arguments: [String], port: UInt16? = nil, environment: [String: String] = [:]) throws {
    var environment = environment
    if let port { environment["OBSERVABLE_SERVER"] = "127.0.0.1:\(port)" }
    let process = try ChildProcess("observable", arguments, environment: environment)
    status = process.waitForExit()
    stdout = process.stdout
    stderr = process.stderr
  }
}
