/// How much one connection reads in one turn of its loop, so that no client's input keeps the
/// loop from the others for long.
///
/// Handling a read costs what it fans out to: 64 KiB of publishes to a topic with 500
/// subscribers copy 32 MB into outboxes, about 5 ms, and 50 such publishers kept a bystander
/// waiting for seconds. A count of reads cannot see that, so the budget is time: a connection
/// reads until it has used ``slice`` in a turn, and a read whose handling alone took longer
/// makes the next one smaller in proportion, down to ``smallestRead``; reads handled quickly
/// grow back to the full buffer. Each ready connection so costs about one slice per turn.
///
/// The slice is a share of ``turnShare`` among the connections a turn found with input, never
/// under ``slice``: a publisher alone on its loop reads for up to 2 ms a turn. Each turn ends
/// in one flush per subscriber, so at 500 µs a lone publisher to 100 subscribers made 37,600
/// sends for 15 M deliveries, and the work per flush (taking the outbox, preparing the send,
/// its completion) was most of the server's own instructions; at 2 ms it made 13,400. With four
/// or more connections ready each still gets 500 µs, so a flood is sliced as before.
///
/// A connection's first read is ``firstRead`` bytes, and doubles from there while reads stay
/// cheap: nothing is known of its cost before it is handled, and 50 publishers whose first
/// reads were each 64 KiB fanned out 1.3 GB to 400 subscribers before any budget had
/// adapted, while a bystander's ping waited.
package struct ReadBudget {
  /// The handling time one connection may use in one turn.
  static let slice: Duration = .microseconds(500)
  /// The handling time the connections with input in one turn share, when few are ready.
  static let turnShare: Duration = .milliseconds(2)
  /// The fewest bytes a read asks for, however costly their handling.
  static let smallestRead = 1024
  /// The bytes a connection's first read asks for.
  static let firstRead = 4096
  /// The most reads in one turn, however cheap.
  static let mostReads = 4

  /// The bytes the next read asks for.
  private(set) var readSize: Int

  /// A budget whose reads ask for at most `largestRead` bytes.
  init(largestRead: Int) {
    readSize = min(largestRead, Self.firstRead)
    self.largestRead = largestRead
  }

  /// The handling time each of `readers` connections with input may use in one turn.
  static func slice(sharedBy readers: Int) -> Duration {
    max(slice, turnShare / max(readers, 1))
  }

  /// Takes the cost of one read: `count` bytes whose handling took `elapsed`, against a turn's
  /// `slice`.
  mutating func record(read count: Int, took elapsed: Duration, slice: Duration = slice) {
    if elapsed > slice {
      let share = Double(count) * (slice / elapsed)
      readSize = max(Self.smallestRead, Int(share))
    } else if count == readSize, elapsed * 2 < slice {
      readSize = min(largestRead, readSize * 2)
    }
  }

  private let largestRead: Int
}
