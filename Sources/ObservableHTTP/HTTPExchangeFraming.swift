import ObservableFraming
import ObservableWire
import WebSocket

/// The framing of an HTTP connection once it made an HTTP API request: a persistent
/// (keep-alive) exchange of requests and answers over one session.
///
/// Each request becomes the line protocol's request (``HTTPAPICall``), numbered with an `id`,
/// preceded by an `auth` line when its credential differs from the last one the session took;
/// the session's reply with that `id` becomes the answer (``HTTPAPIAnswer``). Every answer,
/// a refusal of the head included, goes through the session's replies, so answers leave in
/// the order the requests came even when the session holds a reply back (a retained publish
/// under `--fsync always`, a clustered request). The greeting and notices answer no request
/// and are left out.
///
/// The connection closes after an answer the client asked to close after (`Connection:
/// close`, HTTP/1.0), after a refusal whose body was not read, and when no request came for
/// ``idleTicks`` seconds with nothing waiting. Used on the connection's loop thread only.
final class HTTPExchangeFraming: Framing {
  /// The exchange that starts with `first`, whose head `router` accepted.
  init(router: HTTPRouter, first: HTTPAPICall) {
    self.router = router
    if first.bodyLength == 0 {
      opening = lines(for: first, body: [])
    } else {
      reading = first
    }
  }

  /// Unused: the exchange bounds heads and bodies itself.
  var maxLineBytes = 0

  /// The first request's lines, when its head was all it had.
  func openingRequests() -> [[UInt8]] {
    defer { opening = [] }
    return opening
  }

  func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int {
    var rest = input[...]
    while !rest.isEmpty, !closing {
      if let call = reading {
        let taken = rest.prefix(call.bodyLength - body.count)
        body.append(contentsOf: taken)
        rest = rest.dropFirst(taken.count)
        guard body.count == call.bodyLength else { break }
        reading = nil
        let lines = lines(for: call, body: body)
        body = []
        send(lines, handle)
        continue
      }
      switch parser.parse(rest) {
      case .needMore:
        rest = rest.dropFirst(rest.count)
      case .failed(let error):
        send(answering(.refusing(error)), handle)
      case .complete(let head, let consumed):
        rest = rest.dropFirst(consumed)
        start(head, handle)
      }
    }
    return input.count
  }

  /// Routes `head`, the next request's: an API call waits for its body; anything else is
  /// answered as the router answers it, after the answers before it.
  private func start(_ head: HTTPRequestHead, _ handle: (FramingEvent) -> Bool) {
    idleTicks = 0
    guard let start = router.apiStart(head) else {
      switch router.route(head) {
      case .respond(let response, let includingBody):
        return send(answering(response, includingBody: includingBody), handle)
      case .upgrade, .stream:
        return send(
          answering(
            .jsonError(
              .badRequest, ErrorCode.badRequest.rawValue,
              "\(head.path) needs a connection of its own")), handle)
      }
    }
    router.counters.update { $0.httpRequestsTotal += 1 }
    switch start {
    case .respond(let response): send(answering(response), handle)
    case .call(let call):
      guard call.bodyLength > 0 else { return send(lines(for: call, body: []), handle) }
      reading = call
    }
  }

  /// Hands `lines` to the session; when the client is to be let go and every answer is out,
  /// closes.
  private func send(_ lines: [[UInt8]], _ handle: (FramingEvent) -> Bool) {
    for line in lines {
      _ = line.withUnsafeBytes { handle(.line(UnsafeRawBufferPointer(rebasing: $0.dropLast()))) }
    }
    if closing, waiting.isEmpty {
      _ = handle(.finish(reason: "answered HTTP", farewell: .reply(nil)))
    }
  }

  /// The request lines for `call` with `body`: an `auth` when its credential is new to the
  /// session, then the call's own, or the refusal of the body.
  private func lines(for call: HTTPAPICall, body: [UInt8]) -> [[UInt8]] {
    let id = nextID
    nextID += 1
    switch call.line(id: id, body: body) {
    case .failure(let refusal): return answering(refusal.response)
    case .success(let line):
      var lines: [[UInt8]] = []
      if let credential = call.credential, credential != authenticatedWith {
        lines.append(credential.authLine(id: nil))
        authenticatedWith = credential
      }
      lines.append(line)
      waiting.append(Waiting(id: id, answer: .call(call)))
      if call.wantsClose { closing = true }
      return lines
    }
  }

  /// A `ping` whose reply the session sends after every reply before it: `response` goes out
  /// in its place, so it keeps its turn.
  private func answering(_ response: HTTPResponse, includingBody: Bool = true) -> [[UInt8]] {
    let id = nextID
    nextID += 1
    waiting.append(
      Waiting(id: id, answer: .fixed(response.bytes(includingBody: includingBody))))
    if response.closesConnection { closing = true }
    var line: [UInt8] = []
    line.append(literal: #"{"op":"ping","id":"#)
    line.append(decimal: id)
    line.append(literal: "}\n")
    return [line]
  }

  /// The session's `lines` as the answers they complete; whatever answers no waiting request
  /// (the greeting, a notice, the `auth` reply) is left out.
  private func answer(_ lines: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for line in lines.split(separator: UInt8(ascii: "\n")) where !waiting.isEmpty {
      let reply = line.withUnsafeBytes { try? JSONValue(parsing: $0) }
      guard case .object(let members) = reply, members.first?.key == "ok" else {
        // A delivery line before its reply is a `get`'s retained value.
        if objectMembers(reply)?.first?.key == "stream" {
          waiting[0].retained.append(contentsOf: line)
          waiting[0].retained.append(UInt8(ascii: "\n"))
        }
        continue
      }
      guard case .number(let text) = members.first(where: { $0.key == "id" })?.value,
        Int(text) == waiting[0].id
      else { continue }
      let answered = waiting.removeFirst()
      switch answered.answer {
      case .fixed(let bytes): out.append(contentsOf: bytes)
      case .call(let call):
        HTTPAPIAnswer.response(to: members, for: call, retained: answered.retained)
          .write(to: &out)
      }
    }
    return out
  }

  var sendsLinesUnchanged: Bool { false }

  /// The outbox holds answers already (``outboxEncoding``): they are copied.
  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(contentsOf: lines)
  }

  /// Replies become answers as the session sends them; there are no deliveries, since the
  /// exchange subscribes to nothing.
  var outboxEncoding: (deliveries: any DeliveryEncoding, reply: ([UInt8]) -> [UInt8])? {
    (NoDeliveries.shared, { [self] in answer($0) })
  }

  var allowsStreamCompression: Bool { false }

  /// The session starts at the switch to this framing.
  func attach() -> Bool { true }

  /// A tick a second, counting idle seconds.
  var timerInterval: Duration? { .seconds(1) }

  /// Closes once every answer is out when the client is to be let go, or when it stayed idle
  /// for ``idleSeconds``.
  func timerFired() -> (event: FramingEvent?, again: Bool) {
    idleTicks += 1
    guard waiting.isEmpty else { return (nil, true) }
    if closing { return (.finish(reason: "answered HTTP", farewell: .reply(nil)), false) }
    guard idleTicks >= Self.idleSeconds else { return (nil, true) }
    return (.finish(reason: "idle HTTP connection", farewell: .reply(nil)), false)
  }

  /// The members of `value` when it is an object.
  private func objectMembers(_ value: JSONValue?) -> [JSONValue.Member]? {
    guard case .object(let members) = value else { return nil }
    return members
  }

  /// Output is cut nowhere: it holds no marks of where an answer ends.
  func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? { nil }

  /// How long a connection may wait for its next request, or for the rest of one, in seconds.
  static let idleSeconds = 30

  /// A request whose answer the exchange waits for.
  private struct Waiting {
    /// What answers it.
    enum Answer {
      /// The session's reply to the call.
      case call(HTTPAPICall)
      /// These bytes, whatever the reply.
      case fixed([UInt8])
    }
    let id: Int
    let answer: Answer
    /// What the session sent before the reply.
    var retained: [UInt8] = []
  }

  private let router: HTTPRouter
  private var parser = HTTPRequestHeadParser()
  private var opening: [[UInt8]] = []
  /// The call whose body is arriving.
  private var reading: HTTPAPICall?
  private var body: [UInt8] = []
  /// The requests handed to the session, oldest first.
  private var waiting: [Waiting] = []
  private var nextID = 1
  /// The credential the session last authenticated with.
  private var authenticatedWith: PresentedCredential?
  /// Whether the connection closes once every answer is out; nothing more is read.
  private var closing = false
  /// Seconds since the last request began.
  private var idleTicks = 0
}

/// The delivery encoding of a session that subscribes to nothing.
private final class NoDeliveries: DeliveryEncoding {
  static let shared = NoDeliveries()
  func encode(_ lines: [UInt8]) -> [UInt8] { [] }
}
