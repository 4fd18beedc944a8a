import Logging
import ObservableAuthorization

extension ObservableServer {
  /// Rereads `--auth-file` on every SIGHUP (see ``reloadAuthorization()``); does nothing
  /// without an authorization file.
  public func reloadAuthorizationOnHangup() throws {
    guard configuration.access?.filePath != nil else { return }
    try HangupSignal.watch { [self] in reloadAuthorization() }
  }

  /// Rereads `--auth-file`. A file that does not parse leaves the rules in force and logs one
  /// error with its line; a good one takes effect at once, and each connection ends, with a
  /// notice, the subscriptions the new rules no longer allow. Returns whether it reloaded.
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
    logger.notice("auth file reloaded", metadata: ["path": "\(path)", "users": "\(users)"])
    for home in connectionLoops {
      home.loop.execute {
        for connection in home.connections.all { connection.authorizationReloaded() }
      }
    }
    return true
  }
}
