import IndefiniteObservable
import Logging
import ObservableAuthorization
import ObservableStreams
import ObservableWire

/// The protocol state of one connection: its subscriptions, whether it has authenticated, and
/// the handling of each request. Used on the connection's loop thread only.
///
/// Requests come in as lines, whatever framed them; replies go out through a
/// ``SessionOutput`` and values through the session's ``StreamObserver``, so the session works
/// the same over every transport.
package final class Session {
  package init(
    output: any SessionOutput,
    observer: StreamObserver,
    context: SessionContext,
    scratch: PublishScratch,
    disconnects: PendingDisconnects
  ) {
    self.output = output
    self.observer = observer
    self.context = context
    self.scratch = scratch
    self.disconnects = disconnects
    accessSlot = SessionSlot(ConnectionAccess(policy: context.access))
    authenticated = !context.access.requiresAuthentication
  }

  /// Handles one request line; returns `false` when the rest of the input is no longer lines
  /// (compression started).
  package func handle(_ line: UnsafeRawBufferPointer) -> Bool {
    // After a wrong token (or an HTTP request) nothing more is read; the rest is dropped.
    guard !closing else { return false }
    let publish = PublishShape.parts(of: line)
    // Stored fields only: calling a method of `access` copied the whole `ConnectionAccess`
    // (its rules and decisions) on each publish, about 100 ns a publish for a file user.
    if let publish, !publish.retain, authenticated,
      access.isUnrestricted || access.generation == context.access.generation,
      context.cluster?.fits(lineBytes: publish.deliveryBody.count + 2) ?? true,
      // `lastTopic` is read only to start a batch: a class property, each read of it is an
      // exclusivity check and a retain.
      batch.isEmpty
        ? batch.start(publish, continuing: lastTopic, scratch: scratch) : batch.append(publish)
    {
      if batch.isFull { publishBatched() }
      return true
    }
    do throws(RequestRejection) {
      if let publish { return try performRejecting(publish.request) }
      return try RequestParser.parse(line) { request throws(RequestRejection) in
        try performRejecting(request)
      }
    } catch {
      if error.error.code == .unknownOp, MisdirectedHTTP.isRequestLine(line) {
        return answerMisdirectedHTTP()
      }
      reject(op: error.op, id: error.id, error.error)
      guard !closing else {
        output.finish("wrong token")
        return false
      }
      return true
    }
  }

  private func performRejecting(_ request: Request) throws(RequestRejection) -> Bool {
    do throws(ProtocolError) {
      return try perform(request)
    } catch {
      throw RequestRejection(
        op: request.op.rawValue, id: request.id.map { Array($0) }, error: error)
    }
  }

  /// Sends an error reply.
  package func reject(op: String?, id: [UInt8]?, _ error: ProtocolError) {
    publishBatched()
    reply.removeAll(keepingCapacity: true)
    if let id {
      id.withUnsafeBytes { ReplyEncoder.error(op: op, id: $0, error, to: &reply) }
    } else {
      ReplyEncoder.error(op: op, id: nil, error, to: &reply)
    }
    sendReply(reply)
  }

  /// The input that arrived together has been handled: the publishes batched from it go out.
  package func inputHandled() {
    publishBatched()
    flushStoreWrites()
  }

  /// The rules changed: what is batched goes out under the rules it was judged by, and the
  /// next publish to the last topic is judged again instead of continuing its batch.
  func forgetPublishedTopic() {
    publishBatched()
    lastTopic = nil
  }

  /// The connection is closing: what was read is published, and every subscription ends.
  package func end() {
    publishBatched()
    ended = true
    publishWill()
    flushStoreWrites()
    unsubscribeAll()
  }

  /// Delivers the batched publishes, then sends their replies; called before any request
  /// that is not batched, so that replies keep the order of the requests.
  private func publishBatched() {
    guard !batch.isEmpty, let name = batch.stream else { return }
    let count = batch.count
    // Outboxes and the history keep the lines for as long as a subscriber does not read, so
    // they get them without the loop buffer's spare room; the buffer, unshared, is kept.
    let receivers = context.registry.deliver(
      batch.lines.withoutSpareRoom, count: count, to: name, retain: false,
      lastTopic: &lastTopic)
    batch.end(returningStorageTo: &scratch.bytes)
    // Every batched publish had no id and reached the same observers, so their replies are equal.
    var one: [UInt8] = []
    ReplyEncoder.ok(op: .publish, id: nil, to: &one) {
      ReplyEncoder.integer("receivers", receivers, to: &$0)
    }
    sendReply(one.withUnsafeBytes { [UInt8](repeating: $0, times: count) })
  }

  /// Unsubscribes everything, as the client stops observing (it closed its side): the
  /// subscriptions leave the session now, and their disconnects run on the loop, a slice per
  /// turn when there are many (``PendingDisconnects``).
  package func unsubscribeAll() {
    disconnects.add(&subscriptions)
  }

  private func perform(_ request: Request) throws(ProtocolError) -> Bool {
    guard authenticated || request.op == .auth || authenticateByCertificate() else {
      // Answered in the form the client typed: someone at a terminal gets the shorthand.
      throw ProtocolError(
        .unauthorized,
        request.isShorthand ? "send auth TOKEN first" : "send {\"op\":\"auth\",\"token\":…} first")
    }
    if request.op != .publish { publishBatched() }
    switch request.op {
    case .publish: try publish(request)
    case .subscribe: try subscribe(request)
    case .unsubscribe: try unsubscribe(request)
    case .clear: try clear(request)
    case .list: try list(request)
    case .ping: ok(request)
    case .help: ok(request) { HelpText.append(to: &$0) }
    case .auth: try authenticate(request)
    case .compress: return try compress(request)
    case .will: try registerWill(request)
    case .bye: return sayBye(request)
    case .history: try readHistory(request)
    case .get: try readRetained(request)
    }
    return true
  }

  func publish(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "publish needs \"stream\"")
    }
    guard let value = request.value else {
      throw ProtocolError(.badRequest, "publish needs \"value\"")
    }
    try authorizePublish(name)
    if let cluster = context.cluster {
      if try publishClustered(request, name, value, cluster) { return }
    }
    // Only replies without an id are alike, and a retained value must be delivered on its own.
    if request.id == nil, !request.retain,
      batch.isEmpty ? lastTopic?.name == name || clusteredName == name : batch.stream == name
    {
      if batch.isEmpty { batch.start(name, storage: &scratch.bytes) }
      batch.append(value)
      if batch.isFull { publishBatched() }
      return
    }
    publishBatched()
    if request.retain, let store = context.store {
      return try publishStored(request, name, value, store)
    }
    let receivers = try context.registry.publish(
      value, to: name, retain: request.retain, lastTopic: &lastTopic)
    ok(request) { ReplyEncoder.integer("receivers", receivers, to: &$0) }
  }

  private func clear(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "clear needs \"stream\"")
    }
    try authorizePublish(name)
    if let cluster = context.cluster { return try clearClustered(request, name, cluster) }
    if let store = context.store { return try clearStored(request, name, store) }
    let cleared = try context.registry.clearRetained(name)
    ok(request) {
      Self.appendStream(name, to: &$0)
      ReplyEncoder.key("cleared", to: &$0)
      $0.append(contentsOf: (cleared ? "true" : "false").utf8)
    }
  }

  // The connection owns its session and drops it when it closes, so it always outlives it;
  // unowned(unsafe) spares the reference count traffic of `unowned` on every request.
  unowned(unsafe) let output: any SessionOutput
  let observer: StreamObserver
  let context: SessionContext
  private let scratch: PublishScratch
  var subscriptions = SessionSubscriptions()
  /// Where the subscriptions go when the session ends: the loop's disconnects to run.
  private let disconnects: PendingDisconnects
  /// The topic this connection published to last, which it most likely publishes to next.
  private var lastTopic: Topic?
  /// Publishes to `lastTopic` waiting for the end of the read.
  private var batch: PublishBatch {
    unsafeAddress { UnsafePointer(batchSlot.pointer) }
    unsafeMutableAddress { batchSlot.pointer }
  }
  private let batchSlot = SessionSlot(PublishBatch())
  var authenticated: Bool
  /// Who the client proved to be, and its decisions topic by topic; read on every publish.
  var access: ConnectionAccess {
    unsafeAddress { UnsafePointer(accessSlot.pointer) }
    unsafeMutableAddress { accessSlot.pointer }
  }
  private let accessSlot: SessionSlot<ConnectionAccess>
  /// Set once a wrong token was sent: the connection closes after the error reply.
  var closing = false
  /// Whether `compress` switched the connection to deflate; it cannot be switched back.
  var compressed = false
  /// With `--cluster`: replies waiting behind one the cluster owes, and the topic checked last.
  var replyQueue = ReplyQueue()
  /// The retained changes of the input being handled, for the store once it is handled.
  var storeWrites = StoreWriteGroup()
  /// Subscriptions whose values wait for their reply, by its ticket in `replyQueue`.
  var heldValues: [(ticket: Int, values: HeldValues)] = []
  var clusteredName: String?
  /// The connection's last will, published by ``end()`` unless withdrawn first.
  var will: LastWill?
  /// Set as the session ends: its last publishes (the will's) send no reply.
  var ended = false
  /// The reply being built, kept to reuse its capacity.
  var reply: [UInt8] = []
  /// The last reply to a retained publish without an `id`, and how many receivers it says.
  var lastRetainedReply: (receivers: Int, line: [UInt8]) = (-1, [])
}
