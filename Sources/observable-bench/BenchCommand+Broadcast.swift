import ArgumentParser
import Glibc

/// `--scenario broadcast`, which starts its own servers and prints its own table.
extension BenchCommand {
  func runBroadcast(secondsEach: Double) throws {
    try reportingFailure {
      guard connect == nil else {
        throw BenchError.refused("--scenario broadcast starts its own servers: drop --connect")
      }
      // Every file the hard limit allows, for this process's subscribers; the servers started
      // inherit it for their side.
      try FileLimit.raise(toAtLeast: FileLimit.hardLimit())
      let executable = try ServerExecutable.resolve(
        explicitPath: server, build: !noBuild, deadline: Deadline(secondsFromNow: secondsEach))
      let report = try BroadcastRun(
        options: broadcast, observableServer: executable, secondsEach: secondsEach
      ).execute()
      print(json ? report.json() : report.table())
    }
  }
}
