/// The operations a client can request.
enum Operation: String, Sendable, CaseIterable {
  case subscribe, unsubscribe, publish, list, ping, auth, compress, help
}
