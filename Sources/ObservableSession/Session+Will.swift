import ObservableStreams
import ObservableWire

/// The last will: `will` registers or withdraws the connection's one will, `bye` withdraws it
/// and closes, and ``publishWill()`` publishes it when the session ends any other way.
///
/// Every way a connection ends (the client's close, a reset, a dead peer, a slow consumer, a
/// limit, a TLS or WebSocket close, the server's shutdown) ends its session exactly once
/// (`Connection.close` and `drain` both go through `endSession`, which drops the session), so a
/// will is published at most once, and never after it was withdrawn.
extension Session {
  /// `{"op":"will","stream":NAME,"value":V,"retain":BOOL}`: registers V, replacing any will
  /// the connection had; a null V withdraws the will instead.
  func registerWill(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "will needs \"stream\"")
    }
    guard let value = request.value else {
      throw ProtocolError(.badRequest, "will needs \"value\" (null withdraws the will)")
    }
    if LastWill.withdraws(value) {
      let withdrawn = will != nil
      will = nil
      return ok(request) {
        Self.appendStream(name, to: &$0)
        Self.appendFlag("withdrawn", withdrawn, to: &$0)
      }
    }
    try checkWillTarget(name, value)
    let replaced = will != nil
    will = LastWill(stream: name, value: Array(value), retain: request.retain)
    ok(request) {
      Self.appendStream(name, to: &$0)
      Self.appendFlag("replaced", replaced, to: &$0)
    }
  }

  /// Refuses a will that its publish would refuse, so that the client hears of it now rather
  /// than never: a bad or read-only name, a name the user may not publish to, or, clustered, a
  /// value too large for a NATS message. A will is a publish made later: its publish then goes
  /// through ``publish(_:)`` and that publish's checks again, under the rules then in force.
  private func checkWillTarget(_ name: String, _ value: UnsafeRawBufferPointer)
    throws(ProtocolError)
  {
    try context.registry.checkTopic(name)
    try authorizePublish(name)
    try context.cluster?.checkSize(
      lineBytes: DeliveryEncoder.prefixLength(stream: name) + value.count + 2)
  }

  /// `bye`: withdraws the will, answers, and closes once the answer is written, with the
  /// framing's normal closure; whatever followed the request is not read.
  func sayBye(_ request: Request) -> Bool {
    will = nil
    ok(request)
    closing = true
    output.finishAsAsked("bye")
    return false
  }

  /// Publishes the will, if the connection still has one, as the client's own publish would
  /// be (clustered and retained included), without a reply; called once, as the session ends.
  func publishWill() {
    guard let will else { return }
    self.will = nil
    var request = Request(op: .publish)
    request.stream = will.stream
    request.retain = will.retain
    do throws(ProtocolError) {
      let outcome = will.value.withUnsafeBytes { value in
        request.value = value
        return Result { () throws(ProtocolError) in try publish(request) }
      }
      try outcome.get()
      inputHandled()
      context.counters.update { $0.willsPublishedTotal += 1 }
      context.logger.debug(
        "will published", metadata: ["peer": "\(output.peer)", "stream": "\(will.stream)"])
    } catch {
      context.logger.warning(
        "will not published",
        metadata: ["peer": "\(output.peer)", "stream": "\(will.stream)", "error": "\(error)"])
    }
  }

  /// Appends `"KEY":true` or `"KEY":false` to a reply being built.
  static func appendFlag(_ key: StaticString, _ flag: Bool, to out: inout [UInt8]) {
    ReplyEncoder.key(key, to: &out)
    out.append(contentsOf: (flag ? "true" : "false").utf8)
  }
}
