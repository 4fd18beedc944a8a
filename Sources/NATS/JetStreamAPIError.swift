/// The `error` object of a JetStream API reply.
public struct JetStreamAPIError: Sendable, Equatable, Codable, CustomStringConvertible {
  /// `err_code` when a stream of that name exists with another configuration.
  public static let streamNameInUse = 10058
  /// `err_code` when the stream does not exist.
  public static let streamNotFound = 10059
  /// `err_code` when the consumer does not exist.
  public static let consumerNotFound = 10014
  /// `err_code` when the subject asked for has no message.
  public static let noMessageFound = 10037

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
