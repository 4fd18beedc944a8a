import Glibc

/// This process's open-file limit, which 10,000 client sockets are far past when it is the
/// usual soft 1,024; a server the benchmark starts inherits the raised limit for its side.
enum FileLimit {
  /// Raises the soft limit to at least `needed`, up to the hard limit.
  static func raise(toAtLeast needed: Int) throws(BenchError) {
    var limit = rlimit()
    let resource = Int32(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { throw .system(call: "getrlimit", code: errno) }
    guard limit.rlim_cur < rlim_t(needed) else { return }
    guard limit.rlim_max >= rlim_t(needed) else {
      throw .refused(
        "this run needs \(needed) open files but the hard limit is \(limit.rlim_max); "
          + "raise it (ulimit -Hn) or lower --connections")
    }
    limit.rlim_cur = rlim_t(needed)
    guard setrlimit(resource, &limit) == 0 else { throw .system(call: "setrlimit", code: errno) }
  }
}

extension FileLimit {
  /// The hard limit on open files, which an unprivileged process may raise its soft limit to.
  static func hardLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
    return Int(min(limit.rlim_max, rlim_t(Int32.max)))
  }
}
