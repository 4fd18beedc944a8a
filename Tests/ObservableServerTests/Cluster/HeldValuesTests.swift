import Foundation
import XCTest

@testable import ObservableServer
@testable import ObservableSession
@testable import ObservableStreams

/// The hold that keeps a subscription's values behind its reply, and the reply queue's
/// tickets it waits for.
final class HeldValuesTests: XCTestCase {
  func testValuesWaitForOpenThenFollowInOrder() {
    let sink = ByteSink()
    let held = HeldValues(StreamObserver { sink.append($0) }) { _ in }
    held.relay.next(Array("a\n".utf8))
    held.relay.next(Array("b\n".utf8))
    XCTAssertEqual(sink.text, "")
    held.open()
    held.relay.next(Array("c\n".utf8))
    XCTAssertEqual(sink.text, "a\nb\nc\n")
  }

  func testValuesPastTheLimitAreDroppedAndCounted() {
    let sink = ByteSink()
    let dropped = ByteSink()
    let held = HeldValues(StreamObserver { sink.append($0) }) { lines in
      dropped.append(Array(String(lines).utf8))
    }
    held.relay.next([UInt8](repeating: 0x61, count: HeldValues.limit - 1) + [0x0A])
    held.relay.next(Array("x\ny\n".utf8))
    XCTAssertEqual(dropped.text, "2")
    held.open()
    XCTAssertEqual(sink.count, HeldValues.limit)
  }

  func testHeldReplyIsSentWithTheOwedReplyBeforeIt() {
    var queue = ReplyQueue()
    let owed = queue.reserve()
    let held = queue.hold(Array("s".utf8))
    XCTAssertEqual(held, queue.lastTicket)
    XCTAssertFalse(queue.hasSent(held))
    XCTAssertEqual(String(decoding: queue.fill(owed, with: Array("p".utf8)), as: UTF8.self), "ps")
    XCTAssertTrue(queue.hasSent(held))
  }
}

/// Bytes an observer received, from any thread.
private final class ByteSink: @unchecked Sendable {
  // Unchecked: `bytes` is behind `lock`.
  private let lock = NSLock()
  private var bytes: [UInt8] = []

  func append(_ more: [UInt8]) { lock.withLock { bytes += more } }

  var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

  var count: Int { lock.withLock { bytes.count } }
}
