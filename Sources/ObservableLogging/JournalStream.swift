import Glibc

/// Whether standard error goes to the systemd journal.
///
/// systemd sets `JOURNAL_STREAM=<device>:<inode>` for a service whose output it collects. The
/// variable is inherited by children whose output goes elsewhere, so, as systemd.exec(5)
/// advises, it only counts when the descriptor is that very stream.
public enum JournalStream {
  /// True when `environment`'s `JOURNAL_STREAM` names the file `descriptor` is open on.
  public static func isConnected(
    descriptor: Int32 = STDERR_FILENO,
    environment: [String: String] = JournalStream.inheritedEnvironment()
  ) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return false
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
  }

  /// The one variable `isConnected` reads, from this process's environment.
  ///
  /// Read with `getenv` rather than Foundation's `ProcessInfo`, so that the server links no
  /// Foundation (and with it ICU) just for this.
  public static func inheritedEnvironment() -> [String: String] {
    guard let value = getenv("JOURNAL_STREAM") else { return [:] }
    return ["JOURNAL_STREAM": String(cString: value)]
  }
}
