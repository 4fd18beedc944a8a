extension Connection {
  /// The authorization file was reloaded: the session ends what the new rules forbid.
  func authorizationReloaded() {
    session?.authorizationReloaded()
  }
}
