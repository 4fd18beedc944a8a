import ObservableWire

extension PresentedCredential {
  /// The `auth` request presenting this credential, ending in `\n`, numbered `id` when given:
  /// an HTTP request reaches its session as the line a client would have typed.
  func authLine(id: Int?) -> [UInt8] {
    var line: [UInt8] = []
    line.append(literal: #"{"op":"auth","#)
    if let id {
      line.append(literal: #""id":"#)
      line.append(decimal: id)
      line.append(literal: ",")
    }
    switch self {
    case .signed(let jwt):
      line.append(literal: #""jwt":"#)
      JSONStringEncoding.append(jwt, to: &line)
    case .token(let user, let token):
      if let user {
        line.append(literal: #""user":"#)
        JSONStringEncoding.append(user, to: &line)
        line.append(literal: ",")
      }
      line.append(literal: #""token":"#)
      JSONStringEncoding.append(token, to: &line)
    }
    line.append(literal: "}\n")
    return line
  }
}
