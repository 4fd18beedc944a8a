import Glibc

/// Why a benchmark run, or one of its scenarios, could not be carried out.
///
/// Distinct from a failed check (lost messages, a miscounted disconnect): those are results and
/// go in the table; these stop the scenario because there is nothing trustworthy to report.
enum BenchError: Error, CustomStringConvertible {
  /// A system call failed with `errno`.
  case system(call: String, code: Int32)
  /// The user asked for something the benchmark will not do.
  case refused(String)
  /// The server answered something the benchmark did not expect.
  case unexpected(String)
  /// The server process could not be built, started or reached.
  case server(String)
  /// The run reached `--timeout`.
  case timedOut(String)

  var description: String {
    switch self {
    case .system(let call, let code): "\(call): \(String(cString: strerror(code))) (errno \(code))"
    case .refused(let reason): reason
    case .unexpected(let what): "unexpected from the server: \(what)"
    case .server(let what): what
    case .timedOut(let what): "timed out \(what)"
    }
  }
}
