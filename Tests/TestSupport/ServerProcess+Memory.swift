import Foundation

extension ServerProcess {
  /// The process's resident set size in bytes, from /proc.
  public var residentBytes: Int? { statusBytes("VmRSS:") }

  /// The most memory the process has held at once (its peak resident set size), from /proc.
  public var peakResidentBytes: Int? { statusBytes("VmHWM:") }

  /// A size in `/proc/PID/status`, given in kB there, in bytes.
  private func statusBytes(_ field: String) -> Int? {
    guard
      let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
  }
}
