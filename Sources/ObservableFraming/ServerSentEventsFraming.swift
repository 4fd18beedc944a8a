import ObservableWire

/// The framing of a `GET /sse` connection after its `200` head: the session's lines go out as
/// Server-Sent Events, and the client sends nothing more.
///
/// Events go into the outbox already encoded, each value's once for all its SSE subscribers
/// (``outboxEncoding``), and a write sends them as they are, as a TCP write sends lines.
/// The connection runs an ordinary session: ``openingRequests()`` hands it the `auth` and
/// `subscribe` lines the request's query asked for, so authentication, subscriptions, retained
/// values, the bounded outbox and the disconnects at close are the same as for any
/// subscriber. Only the output differs: each delivery line becomes one event
/// (``ServerSentEvents``), an error reply becomes an `error` event, and every other reply
/// (the greeting, a subscribe's `ok`) is left out, since an `EventSource` has no use for it.
/// Used on the connection's loop thread only.
package final class ServerSentEventsFraming: Framing {
  /// A framing that starts its session with `openingRequests` and writes a comment every
  /// `heartbeat`, so proxies and browsers see the idle stream is alive; with `ids` (the server
  /// keeps history, so deliveries carry positions), each delivery's position is its `id:`.
  package init(openingRequests: [[UInt8]], heartbeat: Duration, ids: Bool = false) {
    self.openingLines = openingRequests
    self.heartbeat = heartbeat
    self.ids = ids
  }

  /// Unused: the client sends no requests after its head.
  package var maxLineBytes = 0

  /// Input after the head is read and dropped: an `EventSource` sends nothing, and the only
  /// thing the server listens for is the close, which the connection sees by itself.
  package func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int {
    input.count
  }

  /// The request lines the session handles first: the query's `auth` and `subscribe`s.
  package func openingRequests() -> [[UInt8]] {
    defer { openingLines = [] }
    return openingLines
  }

  package var sendsLinesUnchanged: Bool { false }

  /// The outbox holds events already (``outboxEncoding``), written as they are
  /// (``outboxHoldsWireForm``).
  package var outboxHoldsWireForm: Bool { true }

  /// Events (queued ones moved behind what is being written) are copied. A line alone (a
  /// `slow_consumer` notice written past the outbox) is encoded here.
  package func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    if lines.first == UInt8(ascii: "{") {
      ServerSentEvents.append(lines: lines, ids: ids, to: &out)
    } else {
      out.append(bytes: lines)
    }
  }

  /// Each value's event is made once, for every subscriber (``ServerSentEvents/once``); a
  /// reply becomes an `error` event or nothing when the session sends it.
  package var outboxEncoding: (deliveries: any DeliveryEncoding, reply: ([UInt8]) -> [UInt8])? {
    (ServerSentEvents.once(ids: ids), { [ids] in ServerSentEvents.events(of: $0, ids: ids) })
  }

  package var allowsStreamCompression: Bool { false }

  /// The session starts at the switch to this framing.
  package func attach() -> Bool { true }

  package var timerInterval: Duration? { heartbeat }

  /// A comment line, which `EventSource` ignores, every interval.
  package func timerFired() -> (event: FramingEvent?, again: Bool) {
    (.controlFrame(ServerSentEvents.heartbeat), true)
  }

  /// Events are cut nowhere: the output holds no marks of where one ends.
  package func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? {
    nil
  }

  private var openingLines: [[UInt8]]
  private let heartbeat: Duration
  private let ids: Bool
}
