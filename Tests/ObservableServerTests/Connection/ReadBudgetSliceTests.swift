import Testing

@testable import ObservableTransport

/// The read time a turn gives each connection with input: a lone publisher reads longer, so
/// each flush to its subscribers covers more, while a crowd is sliced as finely as before.
@Suite("The read slice is shared among the connections ready")
struct ReadBudgetSliceTests {
  @Test func aLoneReaderGetsTheWholeShare() {
    #expect(ReadBudget.slice(sharedBy: 1) == ReadBudget.turnShare)
    #expect(ReadBudget.slice(sharedBy: 0) == ReadBudget.turnShare)
    #expect(ReadBudget.slice(sharedBy: 2) == ReadBudget.turnShare / 2)
  }

  @Test func aCrowdGetsNoMoreThanTheSmallestSlice() {
    #expect(ReadBudget.slice(sharedBy: 4) == ReadBudget.slice)
    #expect(ReadBudget.slice(sharedBy: 30) == ReadBudget.slice)
  }

  @Test func readsShrinkToTheSliceTheyWereGiven() {
    var budget = ReadBudget(largestRead: 64 << 10)
    budget.record(read: 4096, took: .microseconds(100), slice: .milliseconds(2))
    #expect(budget.readSize == 8192)
    budget.record(read: 8192, took: .milliseconds(4), slice: .milliseconds(2))
    #expect(budget.readSize == 4096)
    budget.record(read: 4096, took: .milliseconds(1), slice: .microseconds(500))
    #expect(budget.readSize == 2048)
  }
}
