/// The operations a client can request, named as in the `"op"` field.
enum RequestOp: String, Sendable, CaseIterable {
  case subscribe, unsubscribe, publish, list, ping, auth, compress, help
}
