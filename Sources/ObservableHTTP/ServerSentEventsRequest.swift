import ObservableWire

/// What a `GET /sse` asks for, as the request lines its session handles first: `auth` when the
/// server needs a credential, then one `subscribe` per `stream=` of the query, in order.
///
/// This is the one place an SSE request becomes protocol: `Last-Event-ID` (sent by a
/// reconnecting `EventSource`) becomes each subscribe's `"since"`, so resuming is the
/// line protocol's resume. With history, every subscribe asks for positions (`"pos":true`), which
/// become the events' `id:`; without it, there are no ids, so a browser sends no
/// `Last-Event-ID` and a resumed stream starts with the retained values, as a new one does.
struct ServerSentEventsRequest {
  /// The stream names and patterns to subscribe to.
  let streams: [String]
  /// The credential to authenticate with; nil when the server needs none.
  let credential: PresentedCredential?
  /// The last event's `id:` the client saw, if it is resuming.
  let lastEventID: String?
  /// Whether the server keeps history, so that subscribes may ask for positions.
  var positions = false

  /// The request lines, each ending in `\n`.
  var lines: [[UInt8]] {
    var lines: [[UInt8]] = []
    if let credential { lines.append(credential.authLine(id: nil)) }
    for stream in streams {
      var line: [UInt8] = []
      line.append(literal: #"{"op":"subscribe","stream":"#)
      JSONStringEncoding.append(stream, to: &line)
      if positions, let lastEventID {
        line.append(literal: #","since":"#)
        JSONStringEncoding.append(lastEventID, to: &line)
      } else if positions {
        line.append(literal: #","pos":true"#)
      }
      line.append(literal: "}\n")
      lines.append(line)
    }
    return lines
  }
}
