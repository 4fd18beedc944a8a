/// Why a JetStream API call or acknowledged publish failed.
public enum JetStreamError: Error, Equatable, CustomStringConvertible {
  /// JetStream answered with an error object.
  case api(JetStreamAPIError)
  /// No reply: a timeout, no responders (JetStream off, or no stream for the subject), or a
  /// lost connection.
  case request(NATSRequestError)
  /// A header-only reply with a status the call does not expect, such as `408`.
  case unexpectedStatus(Int, String)
  /// A reply that is not the JSON the call expects.
  case malformedReply(String)

  /// Whether trying again later may succeed: JetStream without a leader answers 503 or not
  /// at all for a few seconds after a server dies.
  public var isTemporary: Bool {
    switch self {
    case .api(let error): error.code == 503 || error.code == 408
    case .request: true
    case .unexpectedStatus(let status, _): status == 503 || status == 408
    case .malformedReply: false
    }
  }

  /// A sentence for the log or the user.
  public var description: String {
    switch self {
    case .api(let error): error.description
    case .request(let error): "JetStream request failed: \(error)"
    case .unexpectedStatus(let status, let text): "JetStream answered status \(status) \(text)"
    case .malformedReply(let reason): "malformed JetStream reply: \(reason)"
    }
  }
}
