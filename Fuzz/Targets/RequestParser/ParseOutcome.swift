import FuzzSupport

@testable import ObservableWire

/// What ``RequestParser`` made of one line, with the request copied out of its closure.
enum ParseOutcome: CustomStringConvertible {
  /// The parser handed this request to its body.
  case parsed(CapturedRequest)
  /// The parser threw this rejection, which the server turns into an error reply.
  case rejected(RequestRejection)

  /// Parses `line`, checking that the parser calls its body exactly once for a request and never
  /// for a rejection.
  init(_ line: UnsafeRawBufferPointer) {
    var calls = 0
    do throws(RequestRejection) {
      self = try RequestParser.parse(line) { request throws(RequestRejection) in
        calls += 1
        return .parsed(CapturedRequest(request))
      }
    } catch {
      self = .rejected(error)
    }
    require(calls == (request == nil ? 0 : 1), "the parser called its body \(calls) times")
  }

  /// Parses `line`, as the initializer taking a buffer does.
  init(_ line: [UInt8]) {
    self = line.withUnsafeBytes { ParseOutcome($0) }
  }

  /// The request, when the line parsed.
  var request: CapturedRequest? {
    if case .parsed(let request) = self { return request }
    return nil
  }

  /// The request as a JSON line, or the rejection's code and message, for failure messages.
  var description: String {
    switch self {
    case .parsed(let request): "parsed \(request)"
    case .rejected(let rejection): "rejected (\(rejection.error.code): \(rejection.error.message))"
    }
  }
}
