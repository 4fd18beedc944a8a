import Logging
import ObservableCredentials

extension ObservableServer {
  /// What SIGHUP does: reads the TLS certificate and `--auth-file` again, whichever the server
  /// has. Each is reloaded on its own: one that fails logs one error and keeps what was in
  /// force, and does not stop the other. Call it from one thread at a time (the main thread's
  /// signal wait).
  public func reload() {
    let hasCertificates = running.withLock { $0?.tls != nil }
    let hasAuthFile = configuration.access?.filePath != nil
    if hasCertificates { reloadCertificates() }
    if hasAuthFile { reloadAuthorization() }
    if !hasCertificates, !hasAuthFile {
      logger.notice("nothing to reload: no TLS certificate and no --auth-file")
    }
  }

  /// Rereads `--auth-file`. A file that does not parse leaves the rules in force and logs one
  /// error with its line; a good one takes effect at once, and each connection ends, with a
  /// notice, the subscriptions the new rules no longer allow, before this returns (and logs
  /// the reload). Returns whether it reloaded.
  @discardableResult
  public func reloadAuthorization() -> Bool {
    guard let access = configuration.access, let path = access.filePath else { return false }
    let users: Int
    do {
      users = try access.reload()?.users.count ?? 0
    } catch {
      logger.error(
        "auth file not reloaded; the rules in force stay",
        metadata: ["path": "\(path)", "error": "\(error)"])
      return false
    }
    // Each connection's session is its loop's alone, so the loop ends what the rules forbid.
    // Waited for: a subscription to a concrete name delivers without a check of its own, so the
    // reload is in force only once every loop has ended those the new rules forbid.
    for home in connectionLoops {
      try? home.loop.submitAndWait {
        for connection in home.connections.all { connection.authorizationReloaded() }
      }
    }
    logger.notice("auth file reloaded", metadata: ["path": "\(path)", "users": "\(users)"])
    return true
  }
}
