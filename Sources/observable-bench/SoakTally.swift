/// What the soak's clients did and saw, summed over every client of a phase.
struct SoakTally {
  /// Clients started, by role.
  var started: [SoakPlan.Role: Int] = [:]
  /// Clients that left by their own plan, by ending.
  var endings: [SoakPlan.Ending: Int] = [:]
  var requests = 0
  var replies = 0
  var deliveries = 0
  /// `{"ok":false…}` replies to clients that did nothing wrong.
  var errors = 0
  var firstError: String?
  /// Readers and never-readers the server closed, as slow consumers.
  var slowConsumerCloses = 0
  /// Never-readers still open when their time was up: the server never found them slow.
  var neverReadersOutlived = 0
  /// Clients without `auth` that the server closed, and those it had not closed in time.
  var authTimeoutCloses = 0
  var authTimeoutMissed = 0
  /// Replies missing when a half-closing client read to the end.
  var unanswered = 0
  /// Clients the server closed although they behaved.
  var unexpectedCloses = 0
  var firstUnexpectedClose: String?
  /// Clients still busy when the phase's grace ran out, closed by the benchmark.
  var forced = 0

  /// Notes an error reply or an unexpected close, keeping the first for the report.
  mutating func error(_ text: String) {
    errors += 1
    if firstError == nil { firstError = text }
  }

  /// Notes that the server closed a client that behaved.
  mutating func unexpectedClose(_ text: String) {
    unexpectedCloses += 1
    if firstUnexpectedClose == nil { firstUnexpectedClose = text }
  }

  /// Every client started, whatever its role.
  var clients: Int { started.values.reduce(0, +) }
}
