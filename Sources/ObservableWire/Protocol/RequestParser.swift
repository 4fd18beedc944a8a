/// Turns request lines into ``Request`` values.
///
/// A line that starts with `{` is a JSON request; any other line is the text shorthand meant for
/// people at a terminal (`subscribe clock`, `publish room.1 hello`).
package enum RequestParser {
  /// Parses `line` (without its line ending) and hands the request to `body`.
  package static func parse<Output>(
    _ line: UnsafeRawBufferPointer,
    _ body: (Request) throws(RequestRejection) -> Output
  ) throws(RequestRejection) -> Output {
    var start = 0
    while start < line.count, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t")
    {
      start += 1
    }
    if start < line.count, line[start] == UInt8(ascii: "{") {
      if let publish = PublishShape.match(line) { return try body(publish) }
      return try body(parseJSON(line))
    }
    return try ShorthandParser.parse(UnsafeRawBufferPointer(rebasing: line[start...]), body)
  }

  private static func parseJSON(_ line: UnsafeRawBufferPointer) throws(RequestRejection) -> Request
  {
    let object: [JSONMember]?
    do {
      object = try JSONScanner.scanObject(line)
    } catch {
      throw RequestRejection(
        error: ProtocolError(.badRequest, "invalid JSON at byte \(error.offset): \(error.reason)"))
    }
    guard let members = object else {
      throw RequestRejection(error: ProtocolError(.badRequest, "a request must be a JSON object"))
    }
    var fields = RequestFields()
    var opMember: JSONMember?
    var problem: String?
    // Every member is read before any is judged, so that an error reply can name the op and id.
    for member in members {
      let bit = RequestFields.bit(for: member.key)
      if fields.seen & bit != 0 {
        problem = problem ?? "duplicate key \"\(member.key)\""
        continue
      }
      fields.seen |= bit
      switch member.key {
      case "op": opMember = member
      case "id":
        if member.kind == .object || member.kind == .array {
          problem = problem ?? "\"id\" must be a string, number, boolean or null"
        } else {
          fields.id = UnsafeRawBufferPointer(rebasing: line[member.value])
        }
      case "stream": fields.stream = member
      case "value": fields.value = member
      case "retain": fields.retain = member
      case "token": fields.token = member
      case "algorithm": fields.algorithm = member
      case "after": fields.after = member
      case "pos": fields.positions = member
      case "since": fields.since = member
      case "limit": fields.limit = member
      case "user": fields.user = member
      case "jwt": fields.jwt = member
      default: continue
      }
    }
    if let opMember, opMember.kind == .string {
      fields.op = JSONScanner.decodeString(line, opMember.value)
    }
    if let problem { throw fields.rejection(.badRequest, problem) }
    guard opMember != nil else { throw fields.rejection(.badRequest, "missing \"op\"") }
    guard let opText = fields.op else {
      throw fields.rejection(.badRequest, "\"op\" must be a string")
    }
    guard let op = RequestOp(rawValue: opText) else {
      throw fields.rejection(
        .unknownOp, "unknown op \"\(QuotedPrefix.of(opText))\"; send {\"op\":\"help\"}")
    }
    var request = Request(op: op, id: fields.id)
    request.stream = try fields.string(fields.stream, in: line)
    request.token = try fields.string(fields.token, in: line)
    request.algorithm = try fields.string(fields.algorithm, in: line)
    request.after = try fields.string(fields.after, in: line)
    request.user = try fields.string(fields.user, in: line)
    request.jwt = try fields.string(fields.jwt, in: line)
    request.value = fields.value.map { UnsafeRawBufferPointer(rebasing: line[$0.value]) }
    if let retain = fields.retain {
      guard retain.kind == .bool else {
        throw fields.rejection(.badRequest, "\"retain\" must be a boolean")
      }
      request.retain = line[retain.value.lowerBound] == UInt8(ascii: "t")
    }
    try fields.readHistoryFields(into: &request, line)
    return request
  }
}

/// What has been read of a JSON request so far, so that errors can name its op and id.
struct RequestFields {
  /// The known keys seen so far, one bit each; unknown keys are ignored, duplicates included.
  var seen: UInt16 = 0
  var op: String?
  var id: UnsafeRawBufferPointer?
  // One slot per known key rather than an array, so that a request allocates nothing here.
  var stream: JSONMember?
  var value: JSONMember?
  var retain: JSONMember?
  var token: JSONMember?
  var algorithm: JSONMember?
  var after: JSONMember?
  var positions: JSONMember?
  var since: JSONMember?
  var limit: JSONMember?
  var user: JSONMember?
  var jwt: JSONMember?

  static func bit(for key: String) -> UInt16 {
    switch key {
    case "op": 1
    case "id": 2
    case "stream": 4
    case "value": 8
    case "retain": 16
    case "token": 32
    case "algorithm": 64
    case "after": 128
    case "pos": 256
    case "since": 512
    case "limit": 1024
    case "user": 2048
    case "jwt": 4096
    default: 0
    }
  }

  func rejection(_ code: ErrorCode, _ message: String) -> RequestRejection {
    RequestRejection(op: op, id: id.map { Array($0) }, error: ProtocolError(code, message))
  }

  func string(_ member: JSONMember?, in line: UnsafeRawBufferPointer) throws(RequestRejection)
    -> String?
  {
    guard let member else { return nil }
    guard member.kind == .string else {
      throw rejection(.badRequest, "\"\(member.key)\" must be a string")
    }
    return JSONScanner.decodeString(line, member.value)
  }
}
