extension Connection {
  /// The authorization file was reloaded: the session ends what the new rules forbid. Call
  /// it on the connection's loop.
  package func authorizationReloaded() {
    session?.authorizationReloaded()
  }
}
