import ObservableWire

/// The `compress` request. Loop thread only.
extension Session {
  /// Switches the connection to deflate after the reply, once no cluster reply is owed.
  func compress(_ request: Request) throws(ProtocolError) -> Bool {
    guard let algorithm = request.algorithm else {
      throw ProtocolError(.badRequest, "compress needs \"algorithm\"")
    }
    guard algorithm == "deflate" else {
      throw ProtocolError(.unsupported, "the only compression algorithm is deflate")
    }
    guard !compressed else { throw ProtocolError(.unsupported, "compression is already on") }
    guard replyQueue.isEmpty else {
      throw ProtocolError(.unsupported, "compress waits for the replies the cluster still owes")
    }
    // Handed to the connection rather than queued, so nothing can slip in between the reply
    // and the switch to deflate.
    reply.removeAll(keepingCapacity: true)
    ReplyEncoder.ok(op: request.op, id: request.id, to: &reply) {
      Self.appendStream(algorithm, key: "algorithm", to: &$0)
    }
    try output.startCompression(after: reply)
    compressed = true
    context.logger.debug("compression on", metadata: ["peer": "\(output.peer)"])
    return false
  }
}
