import FuzzSupport

@testable import ObservableWire

/// Fuzzes the request parser with JSON and shorthand lines alike.
///
/// Properties beyond not crashing: a parsed request, written back as a JSON request line, parses
/// to an equal request; the publish fast path agrees with the general parser (a leading space
/// sends the same line down the general path); and every reply the outcome leads to, success or
/// error, is one line holding one JSON object.
@main
enum RequestParserTarget {
  /// Starts libFuzzer, which calls ``check(_:)`` with each input.
  static func main() {
    FuzzDriver.run { data, size in
      RequestParserTarget.check(FuzzDriver.bytes(data, size))
      return 0
    }
  }

  private static func check(_ line: UnsafeRawBufferPointer) {
    let outcome = ParseOutcome(line)
    let spaced = ParseOutcome([UInt8(ascii: " ")] + Array(line))
    switch (outcome, spaced) {
    case (.parsed(let request), .parsed(let general)):
      require(request == general, "without a leading space \(request), with one \(general)")
      checkReEncoding(request)
      checkReply(request.okReply())
    case (.rejected(let rejection), .rejected(let general)):
      require(
        rejection.op == general.op && rejection.id == general.id
          && rejection.error.code == general.error.code,
        "rejections differ with a leading space: \(rejection) and \(general)")
      checkReply(rejection.reply())
    default:
      require(false, "a leading space changes the outcome: \(outcome) and \(spaced)")
    }
  }

  private static func checkReEncoding(_ request: CapturedRequest) {
    let line = request.jsonLine()
    let again = ParseOutcome(line)
    require(
      again.request == request,
      "\(request) written as \(String(decoding: line, as: UTF8.self).debugDescription)"
        + " parses as \(again)")
  }

  private static func checkReply(_ reply: [UInt8]) {
    let text = String(decoding: reply, as: UTF8.self).debugDescription
    require(reply.last == 0x0A, "reply \(text) does not end in a newline")
    let body = reply.dropLast()
    require(!body.contains(0x0A) && !body.contains(0x0D), "reply \(text) is not one line")
    let members = Array(body).withUnsafeBytes { try? JSONScanner.scanObject($0) }
    require(members != nil, "reply \(text) is not a JSON object")
  }
}
