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

/// The `error` object of a JetStream API reply.
public struct JetStreamAPIError: Sendable, Equatable, Codable, CustomStringConvertible {
  /// `err_code` when a stream of that name exists with another configuration.
  public static let streamNameInUse = 10058
  /// `err_code` when the stream does not exist.
  public static let streamNotFound = 10059
  /// `err_code` when the consumer does not exist.
  public static let consumerNotFound = 10014

  /// The HTTP-like status: 400, 404, 500, 503.
  public var code: Int
  /// JetStream's own code, which tells errors of one status apart.
  public var errorCode: Int
  /// The server's text.
  public var text: String

  /// An error from its parts.
  public init(code: Int, errorCode: Int, text: String) {
    self.code = code
    self.errorCode = errorCode
    self.text = text
  }

  private enum CodingKeys: String, CodingKey {
    case code
    case errorCode = "err_code"
    case text = "description"
  }

  /// Decodes the object, where `err_code` and `description` may be missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    code = try container.decode(Int.self, forKey: .code)
    errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode) ?? 0
    text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
  }

  /// `text (code/err_code)`.
  public var description: String { "JetStream error \(code)/\(errorCode): \(text)" }
}
