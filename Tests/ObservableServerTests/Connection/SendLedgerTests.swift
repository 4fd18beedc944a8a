import Glibc
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// Completions are matched by the token each send carries, never by position: with synthetic
/// completions, in any order, late, repeated or unknown, each reaches its own writer once.
@Suite("Send ledger")
struct SendLedgerTests {
  /// A stand-in for a connection.
  private final class Writer {
    let name: String
    init(_ name: String) { self.name = name }
    var identity: ObjectIdentifier { ObjectIdentifier(self) }
  }

  @Test func completionsInAnyOrderReachTheWriterAndBytesTheyBelongTo() {
    var ledger = SendLedger<Writer>()
    let writers = ["a", "b", "c"].map(Writer.init)
    var tokens: [UInt64] = []
    for (index, writer) in writers.enumerated() {
      tokens.append(ledger.record(writer, as: writer.identity, staged: index * 10..<index * 10 + 5))
    }
    #expect(Set(tokens).count == 3)
    for token in tokens.reversed() {
      let entry = ledger.settle(token)
      let index = tokens.firstIndex(of: token)!
      #expect(entry?.writer === writers[index])
      #expect(entry?.staged == index * 10..<index * 10 + 5)
    }
    #expect(ledger.isEmpty)
  }

  @Test func aLateCompletionIsChargedToItsOwnSubmissionNotTheOneUnderWay() {
    var ledger = SendLedger<Writer>()
    // The first submission's wait failed: its send is still in flight when the next begins.
    let early = Writer("early")
    let lateToken = ledger.record(early, as: early.identity, staged: 0..<100)
    #expect(ledger.isInFlight(early.identity))
    #expect(ledger.nextSlot == 1)
    let next = Writer("next")
    let nextToken = ledger.record(next, as: next.identity, staged: 100..<150)
    // Its completion arrives among the new submission's: it goes to `early`, and `next`'s
    // own completion still goes to `next`.
    #expect(ledger.settle(lateToken)?.writer === early)
    #expect(!ledger.isInFlight(early.identity))
    #expect(ledger.settle(nextToken)?.writer === next)
    #expect(ledger.isEmpty)
  }

  @Test func aRepeatedOrUnknownTokenIsChargedToNobody() {
    var ledger = SendLedger<Writer>()
    let writer = Writer("a")
    let token = ledger.record(writer, as: writer.identity, staged: 0..<8)
    #expect(ledger.settle(token) != nil)
    #expect(ledger.settle(token) == nil)
    #expect(ledger.settle(0) == nil)
    #expect(ledger.settle(token + 1) == nil)
    // A writer sends again once its send settled, under a fresh token.
    let again = ledger.record(writer, as: writer.identity, staged: 0..<8)
    #expect(again != token)
    // The old token does not settle the new send, though it may take the same place.
    #expect(ledger.settle(token) == nil)
    #expect(ledger.isInFlight(writer.identity))
    #expect(ledger.settle(again)?.writer === writer)
    #expect(ledger.isEmpty)
  }

  @Test func resultsMeanWhatSendWouldHaveSaid() {
    let entry = SendLedger<Writer>.Entry(
      writer: Writer("a"), identity: ObjectIdentifier(Writer.self), staged: 0..<10)
    #expect(describe(SendLedger.outcome(of: 4, for: entry)) == "sent 4")
    #expect(describe(SendLedger.outcome(of: -EAGAIN, for: entry)) == "full")
    #expect(describe(SendLedger.outcome(of: -ECONNRESET, for: entry)) == "error \(ECONNRESET)")
    // More than was staged cannot have been sent: taking it would skip bytes.
    #expect(describe(SendLedger.outcome(of: 11, for: entry)) == "error \(EIO)")
  }

  private func describe(_ outcome: Result<IOResult<Int>, SystemError>) -> String {
    switch outcome {
    case .success(.done(let count)): "sent \(count)"
    case .success(.wouldBlock): "full"
    case .failure(let error): "error \(error.code)"
    }
  }
}
