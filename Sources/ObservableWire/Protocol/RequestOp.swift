/// The operations a client can request, named as in the `"op"` field.
package enum RequestOp: String, Sendable, CaseIterable {
  case subscribe, unsubscribe, publish, clear, list, ping, auth, compress, help, history
  case will, bye, get
}

extension RequestOp {
  /// The op's name as a literal, so replies copy it without going through a `String`.
  package var literal: StaticString {
    switch self {
    case .subscribe: "subscribe"
    case .unsubscribe: "unsubscribe"
    case .publish: "publish"
    case .clear: "clear"
    case .list: "list"
    case .ping: "ping"
    case .auth: "auth"
    case .compress: "compress"
    case .help: "help"
    case .will: "will"
    case .bye: "bye"
    case .history: "history"
    case .get: "get"
    }
  }
}
