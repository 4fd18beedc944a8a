#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ClientCore {
  /// Routes one line from the server: a reply to the oldest pending request, a delivery to the
  /// observers of the subscription it came through, a gap notice (a clustered server's
  /// subscription that fell behind its history) to the observers of gaps.
  func handle(_ line: ArraySlice<UInt8>) {
    guard let parsed = ServerLine.decode(line) else {
      logger.warning(
        "ignoring a line that is not a JSON object",
        metadata: ["line": "\(String(decoding: line.prefix(200), as: UTF8.self))"])
      return
    }
    if parsed.ok != nil {
      reply(parsed)
    } else if let stream = parsed.stream, let value = RawJSONMember.value(named: "value", in: line)
    {
      deliver(stream: stream, sub: parsed.sub, position: parsed.pos, value: value, line: line)
    } else if parsed.recovered == false, let stream = parsed.stream {
      reportLoss(of: parsed.sub ?? stream)
    }
  }

  private func reply(_ parsed: ServerLine) {
    let (waiting, historyLines) = state.withLock { state -> (PendingReply?, [Delivery]) in
      guard !state.pending.isEmpty else { return (nil, []) }
      let first = state.pending.removeFirst()
      if case .subscribe(let name, _, _) = first {
        if parsed.ok == true {
          state.book.started(name, after: parsed.pos)
        } else {
          state.book.setOnWire(name, false)
        }
      }
      guard case .history = first else { return (first, []) }
      defer { state.historyLines.removeAll() }
      return (first, state.historyLines)
    }
    switch waiting {
    case .caller(let continuation):
      continuation.resume(returning: parsed.result)
    case .subscribe(let name, let since, let resumable):
      if case .failure(let error) = parsed.result {
        logger.error(
          "the server refused a subscription", metadata: ["stream": "\(name)", "error": "\(error)"])
      } else if let gap = Self.gap(name, since: since, resumable: resumable, reply: parsed) {
        report(gap)
      }
    case .history(_, let limit, let continuation):
      // A live value that arrived among the read's lines can make one too many.
      let lines = limit.map { Array(historyLines.suffix($0)) } ?? historyLines
      continuation.resume(returning: parsed.result.map { _ in lines })
    case .unsubscribe(let name):
      if case .failure(let error) = parsed.result {
        logger.debug("unsubscribe refused", metadata: ["stream": "\(name)", "error": "\(error)"])
      }
    case .willRequest(let continuation):
      continuation.resume(returning: parsed.result.map { _ in })
    case .will(let name):
      if case .failure(let error) = parsed.result {
        logger.error(
          "the server refused the will", metadata: ["stream": "\(name)", "error": "\(error)"])
      }
    case .keepAlive:
      break
    case nil:
      logger.warning("a reply arrived with no request waiting for it")
    }
  }

  /// Hands a delivery line to the observers of the subscriptions it came through: a value at
  /// a position goes only to those that have not had it (a resume repeats nothing), and to the
  /// `history` read awaiting its reply when it is one of that read's lines.
  private func deliver(
    stream: String, sub: String?, position: String?, value: ArraySlice<UInt8>,
    line: ArraySlice<UInt8>
  ) {
    let lineData = Data(line)
    let valueData = Data(
      lineData[(value.startIndex - line.startIndex)..<(value.endIndex - line.startIndex)])
    let targets = state.withLock { state in
      var targets = state.book.targets(
        stream: stream, sub: sub, serverSendsSub: state.serverSendsSub)
      guard let position else { return targets }
      // A read's lines come just before its reply, shaped as a positioned subscription of the
      // same name receives them; a live value of such a subscription among them is kept too,
      // and is as recent as the read.
      if case .history(let name, _, _) = state.pending.first, (sub ?? stream) == name {
        state.historyLines.append(
          Delivery(
            stream: stream, subscription: name, value: valueData, line: lineData,
            position: position))
      }
      targets.removeAll { !state.book.admit($0.subscription, position: position) }
      return targets
    }
    for (subscription, observers) in targets {
      let delivery = Delivery(
        stream: stream, subscription: subscription, value: valueData, line: lineData,
        position: position)
      for observer in observers { observer.next(delivery) }
    }
  }
}
