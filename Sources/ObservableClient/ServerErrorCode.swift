/// An error code of the protocol, as the server sends it in `"error":{"code":…}`.
///
/// A struct rather than an enum so that codes added by a newer server are still represented.
public struct ServerErrorCode: RawRepresentable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// The code as it appears on the wire, such as `bad_name`.
  public let rawValue: String

  /// Wraps a code read from the wire.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code itself.
  public var description: String { rawValue }

  /// The request was not valid JSON or lacked a field.
  public static let badRequest = ServerErrorCode(rawValue: "bad_request")
  /// The `op` is not one the server knows.
  public static let unknownOp = ServerErrorCode(rawValue: "unknown_op")
  /// The stream name or pattern is not valid.
  public static let badName = ServerErrorCode(rawValue: "bad_name")
  /// The connection already subscribes to that name.
  public static let alreadySubscribed = ServerErrorCode(rawValue: "already_subscribed")
  /// The connection does not subscribe to that name.
  public static let notSubscribed = ServerErrorCode(rawValue: "not_subscribed")
  /// The stream is built in or an exec stream; it cannot be published to.
  public static let readOnly = ServerErrorCode(rawValue: "read_only")
  /// The request line was longer than the server accepts.
  public static let lineTooLong = ServerErrorCode(rawValue: "line_too_long")
  /// The token was missing or wrong.
  public static let unauthorized = ServerErrorCode(rawValue: "unauthorized")
  /// The user's rules (`--auth-file`, or a signed token's claims) do not allow the request;
  /// the connection stays usable.
  public static let forbidden = ServerErrorCode(rawValue: "forbidden")
  /// The client read too slowly and was disconnected.
  public static let slowConsumer = ServerErrorCode(rawValue: "slow_consumer")
  /// The server has as many connections as it accepts.
  public static let tooManyConnections = ServerErrorCode(rawValue: "too_many_connections")
  /// The server does not support what was asked (such as a second `compress`).
  public static let unsupported = ServerErrorCode(rawValue: "unsupported")
  /// A clustered server could not store or clear a retained value in time; try again later.
  public static let unavailable = ServerErrorCode(rawValue: "unavailable")
}
