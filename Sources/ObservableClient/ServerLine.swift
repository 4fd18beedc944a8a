#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The fields of any line the server sends that the client reads: greeting, reply or delivery.
///
/// One shape for all three, because which one a line is shows only in its fields: a reply has
/// `ok`, a delivery `stream` and `value` without `ok`, the greeting `hello`. A delivery's value
/// is not decoded here; ``RawJSONMember`` takes its bytes.
struct ServerLine: Decodable {
  /// The error part of a failed reply.
  struct ErrorBody: Decodable {
    let code: String
    let message: String?
  }

  let ok: Bool?
  let stream: String?
  let sub: String?
  let error: ErrorBody?
  let receivers: Int?
  /// In a `clear` reply, whether the stream had a retained value to forget.
  let cleared: Bool?
  let streams: [StreamInfo]?
  /// In a `list` reply, the name the next page starts after, when more streams follow.
  let next: String?
  let hello: String?
  let features: [String]?
  let auth: String?
  /// A delivery's position, when its subscription asked for positions (`"pos":true`); in the
  /// reply to a subscribe without `since`, the position the subscription starts after.
  let pos: String?
  /// In the reply to a subscribe with `since`, whether the history reached back that far.
  let recovered: Bool?

  /// Reads `line`; `nil` when it is not a JSON object.
  static func decode(_ line: ArraySlice<UInt8>) -> ServerLine? {
    try? decoder.decode(ServerLine.self, from: Data(line))
  }

  // One for every line of every client: making a decoder per line cost more than decoding.
  // JSONDecoder is Sendable, and these options never change.
  private static let decoder = JSONDecoder()

  /// The reply as a result: its fields on success, its error code and message on failure.
  var result: Result<ServerLine, ClientError> {
    if ok == true { return .success(self) }
    let code = ServerErrorCode(rawValue: error?.code ?? "unknown")
    return .failure(.server(code: code, message: error?.message ?? ""))
  }
}
