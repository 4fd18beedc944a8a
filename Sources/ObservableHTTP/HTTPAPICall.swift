import ObservableWire
import WebSocket

/// One request of the HTTP API, accepted by the router (path, method, content type, length and
/// credential checked), waiting for its body, and then the request line its session handles.
///
/// An HTTP request becomes the line protocol's own request (`publish`, `clear`, `list`, `get`),
/// so it goes through the session exactly as a line would: the same permissions, the cluster,
/// history, the store and its `unavailable`, and a retained publish under `--fsync always`
/// answered only once durable.
struct HTTPAPICall {
  /// What the request asks for.
  enum Operation: Equatable {
    /// `POST /publish`: the body is `{"stream":…,"value":…,"retain":…}`.
    case publish
    /// `POST /clear`: the body is `{"stream":…}`.
    case clear
    /// `GET /streams`: a page of the list.
    case list(pattern: String?, after: String?, limit: Int?)
    /// `GET /streams/NAME`: the retained value.
    case get(String)
  }

  /// What the request asks for.
  let operation: Operation
  /// The credential to authenticate the session with; nil when the server needs none.
  let credential: PresentedCredential?
  /// How many body bytes follow the head.
  let bodyLength: Int
  /// Whether the client asked to close after the answer (`Connection: close`, HTTP/1.0).
  let wantsClose: Bool

  /// The request line for the session, numbered `id` so that its reply is found, or the
  /// answer when `body` is not what the operation takes.
  func line(id: Int, body: [UInt8]) -> Result<[UInt8], HTTPAPIRefusal> {
    var line: [UInt8] = []
    switch operation {
    case .publish, .clear:
      let fields: [String: JSONValue]
      switch Self.object(body, allowing: operation == .publish ? Self.publishKeys : ["stream"]) {
      case .success(let members): fields = members
      case .failure(let message): return .failure(refuse(message.text))
      }
      guard case .string(let stream) = fields["stream"] else {
        return .failure(refuse(#""stream" must be a string"#))
      }
      Self.start(operation == .publish ? "publish" : "clear", id: id, stream: stream, &line)
      if operation == .publish {
        guard let value = fields["value"] else {
          return .failure(refuse(#"publish needs "value""#))
        }
        line.append(literal: #","value":"#)
        value.appendCompact(to: &line)
        if let retain = fields["retain"] {
          guard case .bool(let flag) = retain else {
            return .failure(refuse(#""retain" must be a boolean"#))
          }
          line.append(literal: flag ? #","retain":true"# : #","retain":false"#)
        }
      }
    case .list(let pattern, let after, let limit):
      Self.start("list", id: id, stream: pattern, &line)
      if let after {
        line.append(literal: #","after":"#)
        JSONStringEncoding.append(after, to: &line)
      }
      if let limit {
        line.append(literal: #","limit":"#)
        line.append(decimal: limit)
      }
    case .get(let name):
      Self.start("get", id: id, stream: name, &line)
    }
    line.append(literal: "}\n")
    return .success(line)
  }

  /// The members a publish body may have.
  private static let publishKeys: Set<String> = ["stream", "value", "retain"]

  /// `{"op":OP,"id":ID` and `,"stream":STREAM` when there is one.
  private static func start(_ op: String, id: Int, stream: String?, _ line: inout [UInt8]) {
    line.append(literal: #"{"op":"#)
    JSONStringEncoding.append(op, to: &line)
    line.append(literal: #","id":"#)
    line.append(decimal: id)
    if let stream {
      line.append(literal: #","stream":"#)
      JSONStringEncoding.append(stream, to: &line)
    }
  }

  /// Why a body was refused.
  private struct BodyError: Error {
    let text: String
  }

  /// A `400` with `message`, after which the connection stays open unless the client asked.
  private func refuse(_ message: String) -> HTTPAPIRefusal {
    HTTPAPIRefusal(response: Self.badRequest(message, closing: wantsClose))
  }

  /// The members of `body`, a JSON object with no member besides `allowed` and none twice.
  private static func object(
    _ body: [UInt8], allowing allowed: Set<String>
  ) -> Result<[String: JSONValue], BodyError> {
    let parsed = body.withUnsafeBytes { try? JSONValue(parsing: $0) }
    guard let parsed else { return .failure(BodyError(text: "the body is not JSON")) }
    guard case .object(let members) = parsed else {
      return .failure(BodyError(text: "the body must be a JSON object"))
    }
    var fields: [String: JSONValue] = [:]
    for member in members {
      guard allowed.contains(member.key) else {
        return .failure(
          BodyError(text: "unknown member \(member.key.prefix(64)); allowed: \(allowed.sorted())"))
      }
      guard fields.updateValue(member.value, forKey: member.key) == nil else {
        return .failure(BodyError(text: "member \(member.key) appears twice"))
      }
    }
    return .success(fields)
  }

  /// A `400` with `message`.
  static func badRequest(_ message: String, closing: Bool) -> HTTPResponse {
    .jsonError(.badRequest, ErrorCode.badRequest.rawValue, message, closesConnection: closing)
  }
}
