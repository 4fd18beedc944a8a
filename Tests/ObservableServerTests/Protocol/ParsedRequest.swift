import Testing

@testable import ObservableServer
@testable import ObservableWire

/// A ``Request`` copied out of the parser's closure, raw JSON fields kept as their exact text.
struct ParsedRequest: Equatable {
  var op: RequestOp
  var id: String?
  var stream: String?
  var value: String?
  var retain = false
  var token: String?
  var algorithm: String?

  init(
    op: RequestOp, id: String? = nil, stream: String? = nil, value: String? = nil,
    retain: Bool = false, token: String? = nil, algorithm: String? = nil
  ) {
    self.op = op
    self.id = id
    self.stream = stream
    self.value = value
    self.retain = retain
    self.token = token
    self.algorithm = algorithm
  }

  init(_ request: Request) {
    op = request.op
    id = request.id.map { String(decoding: $0, as: UTF8.self) }
    stream = request.stream
    value = request.value.map { String(decoding: $0, as: UTF8.self) }
    retain = request.retain
    token = request.token
    algorithm = request.algorithm
  }
}

/// What a parser made of one line.
enum ParseOutcome {
  case parsed(ParsedRequest)
  case rejected(RequestRejection)

  var request: ParsedRequest? {
    if case .parsed(let request) = self { return request }
    return nil
  }

  var rejection: RequestRejection? {
    if case .rejected(let rejection) = self { return rejection }
    return nil
  }
}

extension RequestRejection {
  /// The rejected request's raw `id`, as text.
  var idText: String? { id.map { String(decoding: $0, as: UTF8.self) } }
}

/// The signature both parsers share, specialised to what the tests collect.
typealias RequestParse = (
  UnsafeRawBufferPointer, (Request) throws(RequestRejection) -> ParseOutcome
) throws(RequestRejection) -> ParseOutcome

/// Parses `line`, checking that the body runs exactly once for a request and never otherwise.
func parseOutcome(_ line: [UInt8], with parse: RequestParse) -> ParseOutcome {
  var calls = 0
  let outcome = line.withUnsafeBytes { raw -> ParseOutcome in
    do throws(RequestRejection) {
      return try parse(raw) { request throws(RequestRejection) in
        calls += 1
        return .parsed(ParsedRequest(request))
      }
    } catch {
      return .rejected(error)
    }
  }
  #expect(calls == (outcome.request == nil ? 0 : 1), "the body ran \(calls) times")
  return outcome
}

extension RequestParser {
  static func outcome(_ line: [UInt8]) -> ParseOutcome { parseOutcome(line, with: parse) }

  static func outcome(_ line: String) -> ParseOutcome { outcome(Array(line.utf8)) }
}

extension ShorthandParser {
  static func outcome(_ line: [UInt8]) -> ParseOutcome { parseOutcome(line, with: parse) }

  static func outcome(_ line: String) -> ParseOutcome { outcome(Array(line.utf8)) }
}
