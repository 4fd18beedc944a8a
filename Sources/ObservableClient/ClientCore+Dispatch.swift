#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ClientCore {
  /// Routes one line from the server: a reply to the oldest pending request, a delivery to the
  /// observers of the subscription it came through.
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
      deliver(stream: stream, sub: parsed.sub, value: value, line: line)
    }
  }

  private func reply(_ parsed: ServerLine) {
    let waiting = state.withLock { state -> PendingReply? in
      guard !state.pending.isEmpty else { return nil }
      let first = state.pending.removeFirst()
      if case .subscribe(let name) = first, parsed.ok != true { state.book.setOnWire(name, false) }
      return first
    }
    switch waiting {
    case .caller(let continuation):
      continuation.resume(returning: parsed.result)
    case .subscribe(let name):
      if case .failure(let error) = parsed.result {
        logger.error(
          "the server refused a subscription", metadata: ["stream": "\(name)", "error": "\(error)"])
      }
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

  private func deliver(
    stream: String, sub: String?, value: ArraySlice<UInt8>, line: ArraySlice<UInt8>
  ) {
    let targets = state.withLock { state in
      state.book.targets(stream: stream, sub: sub, serverSendsSub: state.serverSendsSub)
    }
    guard !targets.isEmpty else { return }
    let lineData = Data(line)
    let valueData = lineData[
      (value.startIndex - line.startIndex)..<(value.endIndex - line.startIndex)]
    for (subscription, observers) in targets {
      let delivery = Delivery(
        stream: stream, subscription: subscription, value: Data(valueData), line: lineData)
      for observer in observers { observer.next(delivery) }
    }
  }
}
