import Foundation

extension ServerProcess {
  /// The process's resident set size in bytes, from /proc.
  public var residentBytes: Int? { statusBytes("VmRSS:") }

  /// The most memory the process has held at once (its peak resident set size), from /proc.
  public var peakResidentBytes: Int? { statusBytes("VmHWM:") }

  /// How many pages the process has faulted in without reading a file (its minor faults),
  /// from `/proc/PID/stat`: a page the heap gave back and took again is one.
  public var minorFaults: Int? {
    guard
      let stat = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
      let fields = stat.split(separator: ")").last?.split(separator: " "),
      fields.count > 7
    else { return nil }
    // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt.
    return Int(fields[7])
  }

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
