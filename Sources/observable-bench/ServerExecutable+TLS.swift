import Glibc

extension ServerExecutable {
  /// Whether `path` takes `--listen tls://… --tls-cert … --tls-key …`: its `--help` names
  /// `--tls-cert`. A server built before its TLS listeners is measured plain only.
  static func offersTLS(_ path: String) -> Bool {
    let log = "/tmp/observable-bench-help-\(getpid()).txt"
    defer { unlink(log) }
    guard let pid = try? ChildProcess.spawn([path, "--help"], logPath: log) else { return false }
    guard ChildProcess.wait(pid, seconds: 10) != nil else {
      _ = ChildProcess.stop(pid, grace: 0)
      return false
    }
    return ProcFile.read(log)?.contains("--tls-cert") ?? false
  }
}
