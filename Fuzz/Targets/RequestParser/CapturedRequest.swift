@testable import ObservableWire

/// A ``Request`` copied out of the parser's closure, so that two outcomes can be compared.
///
/// The fields are those of ``Request``, with its raw JSON `id` and `value` copied as bytes.
struct CapturedRequest: Equatable, CustomStringConvertible {
  var op: RequestOp
  var id: [UInt8]?
  var stream: String?
  var value: [UInt8]?
  var retain: Bool
  var token: String?
  var algorithm: String?
  var after: String?

  /// Copies `request`, which is only valid inside the parser's closure.
  init(_ request: Request) {
    op = request.op
    id = request.id.map { Array($0) }
    stream = request.stream
    value = request.value.map { Array($0) }
    retain = request.retain
    token = request.token
    algorithm = request.algorithm
    after = request.after
  }

  /// The JSON line, quoted, for failure messages.
  var description: String { String(decoding: jsonLine(), as: UTF8.self).debugDescription }

  /// The request as a JSON request line: every field the request has, and no other.
  func jsonLine() -> [UInt8] {
    var line: [UInt8] = []
    line.append(literal: #"{"op":"#)
    JSONStringEncoding.append(op.rawValue, to: &line)
    if let id {
      line.append(literal: #","id":"#)
      line.append(contentsOf: id)
    }
    Self.appendString("stream", stream, to: &line)
    if let value {
      line.append(literal: #","value":"#)
      line.append(contentsOf: value)
    }
    if retain { line.append(literal: #","retain":true"#) }
    Self.appendString("token", token, to: &line)
    Self.appendString("algorithm", algorithm, to: &line)
    Self.appendString("after", after, to: &line)
    line.append(literal: "}")
    return line
  }

  /// The success reply the server begins with for this request.
  func okReply() -> [UInt8] {
    var reply: [UInt8] = []
    if let id {
      id.withUnsafeBytes { ReplyEncoder.ok(op: op, id: $0, to: &reply) }
    } else {
      ReplyEncoder.ok(op: op, id: nil, to: &reply)
    }
    return reply
  }

  private static func appendString(_ key: StaticString, _ text: String?, to line: inout [UInt8]) {
    guard let text else { return }
    ReplyEncoder.key(key, to: &line)
    JSONStringEncoding.append(text, to: &line)
  }
}

extension RequestRejection {
  /// The error reply the server sends for this rejection.
  func reply() -> [UInt8] {
    var reply: [UInt8] = []
    if let id {
      id.withUnsafeBytes { ReplyEncoder.error(op: op, id: $0, error, to: &reply) }
    } else {
      ReplyEncoder.error(op: op, id: nil, error, to: &reply)
    }
    return reply
  }
}
