import Locking
import ObservableFraming
import Testing

@testable import ObservableTransport

/// Each value is encoded once for all the subscribers that share an encoding, and never
/// mistaken for another value.
@Suite("Delivery encoding memo")
struct DeliveryEncodingMemoTests {
  /// Counts its calls; encodes by reversing the bytes.
  final class CountingEncoding: DeliveryEncoding {
    let calls = Locked(0)
    func encode(_ lines: [UInt8]) -> [UInt8] {
      calls.withLock { $0 += 1 }
      return lines.reversed()
    }
  }

  @Test func oneValueForManySubscribersIsEncodedOnce() {
    let encoding = CountingEncoding()
    let value = Array("abc\n".utf8)
    for _ in 0..<100 {
      #expect(DeliveryEncodingMemo.encode(value, by: encoding) == value.reversed())
    }
    #expect(encoding.calls.withLock { $0 } == 1)
  }

  @Test func equalBytesInOtherStorageAndOtherEncodingsAreEncodedAgain() {
    let first = CountingEncoding()
    let second = CountingEncoding()
    let value = Array("abc\n".utf8)
    _ = DeliveryEncodingMemo.encode(value, by: first)
    _ = DeliveryEncodingMemo.encode(Array("abc\n".utf8), by: first)
    _ = DeliveryEncodingMemo.encode(value, by: second)
    var changed = value
    changed[0] = UInt8(ascii: "x")
    #expect(DeliveryEncodingMemo.encode(changed, by: first) == Array("\ncbx".utf8))
    #expect(first.calls.withLock { $0 } == 3)
    #expect(second.calls.withLock { $0 } == 1)
  }

  @Test func subscribersOfDifferentEncodingsTakingTurnsShareEachEncoding() {
    // SSE readers and WebSocket subscribers sharing frames on one topic, one after another.
    let encodings = (0..<DeliveryEncodingMemo.slots).map { _ in CountingEncoding() }
    let value = Array("abc\n".utf8)
    for _ in 0..<50 {
      for encoding in encodings {
        #expect(DeliveryEncodingMemo.encode(value, by: encoding) == value.reversed())
      }
    }
    #expect(encodings.allSatisfy { $0.calls.withLock { $0 } == 1 })
  }

  @Test func theMemoHoldsOneValueAndAFewEncodings() {
    let value = Array("abc\n".utf8)
    for _ in 0..<(DeliveryEncodingMemo.slots * 3) {
      _ = DeliveryEncodingMemo.encode(value, by: CountingEncoding())
    }
    #expect(DeliveryEncodingMemo.heldEncodings == DeliveryEncodingMemo.slots)
    _ = DeliveryEncodingMemo.encode(Array("next\n".utf8), by: CountingEncoding())
    #expect(DeliveryEncodingMemo.heldEncodings == 1)
  }
}
