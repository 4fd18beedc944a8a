import XCTest

@testable import ObservableServer
@testable import ObservableSession

/// The queue that keeps replies in request order behind those the cluster owes.
final class ReplyQueueTests: XCTestCase {
  func testRepliesLeaveInTicketOrder() {
    var queue = ReplyQueue()
    let first = queue.reserve()
    queue.hold(Array("a".utf8))
    let second = queue.reserve()
    queue.hold(Array("b".utf8))
    XCTAssertEqual(queue.owed, 2)
    XCTAssertEqual(queue.fill(second, with: Array("2".utf8)), [], "the first is still owed")
    XCTAssertEqual(queue.owed, 1)
    XCTAssertEqual(
      String(decoding: queue.fill(first, with: Array("1".utf8)), as: UTF8.self), "1a2b")
    XCTAssertTrue(queue.isEmpty)
    XCTAssertEqual(queue.heldBytes, 0)
    XCTAssertEqual(queue.fill(first, with: Array("x".utf8)), [], "a ticket is filled once")
  }
}
