import ArgumentParser

extension BenchCommand {
  /// Runs one of the command's modes, which prints its own report. A ``BenchError`` that stops
  /// it is logged, printed as a failed report with `--json` (so a script reading the output sees
  /// why), and ends the command with a failing status; any other error passes through.
  func reportingFailure(_ mode: () throws -> Void) throws {
    do {
      try mode()
    } catch let error as BenchError {
      BenchLog.note("\(error)")
      if json { print(BenchReport.failure(error.description)) }
      throw ExitCode.failure
    }
  }
}
