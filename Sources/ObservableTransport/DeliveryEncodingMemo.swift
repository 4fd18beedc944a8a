import Glibc
import ObservableFraming

/// The last value each ``DeliveryEncoding`` encoded on this thread, so that a value delivered
/// to many subscribers of one encoding (SSE readers, WebSocket subscribers sharing compressed
/// frames) is encoded once, not once per subscriber.
///
/// A topic hands every observer the same array, one after another on the publisher's thread:
/// the memo keeps that array and its encodings, and the next observer given an array with the
/// same storage reuses the encoding it needs. Holding the array keeps its storage alive and
/// shared, so storage at the same address is the same bytes (a write would have copied it).
/// Subscribers of different encodings may take turns on one topic, so the memo keeps one
/// encoding of the value per encoding in use, up to ``slots``; a new value drops them all. So
/// it holds at most one value and a few encodings of it. One memo per thread, so that no lock
/// is taken per delivery.
final class DeliveryEncodingMemo {
  /// `lines` encoded by `encoding`, made now or reused from an earlier call on this thread.
  static func encode(_ lines: [UInt8], by encoding: any DeliveryEncoding) -> [UInt8] {
    current.encode(lines, by: encoding)
  }

  /// How many encodings of one value are kept: more encodings than this taking turns on one
  /// topic cost one encoding per subscriber again, never memory.
  static let slots = 4

  /// How many encodings of the current value are held; for tests.
  static var heldEncodings: Int { current.encodings.count }

  private func encode(_ lines: [UInt8], by encoding: any DeliveryEncoding) -> [UInt8] {
    let address = lines.withUnsafeBytes { $0.baseAddress }
    if address != nil, self.address == address, source.count == lines.count {
      for held in encodings where held.encoding === encoding { return held.encoded }
    } else {
      encodings.removeAll(keepingCapacity: true)
      source = lines
      self.address = address
    }
    let encoded = encoding.encode(lines, scratch: &scratch)
    // A huge value's room goes back, as the outgoing buffers' does.
    if scratch.count > 1 << 20 { scratch = [] }
    if encodings.count == Self.slots { encodings.removeFirst() }
    encodings.append(Held(encoding: encoding, encoded: encoded))
    return encoded
  }

  /// One encoding of the current value, held (so its identity cannot pass to a new object)
  /// with what it made. A struct, not a tuple: each reader's look-up copied the tuples through
  /// the runtime's generic tuple witnesses (`tuple_initializeBufferWithCopyOfBuffer`,
  /// `tuple_destroy`), where a struct's fields are copied inline.
  private struct Held {
    let encoding: any DeliveryEncoding
    let encoded: [UInt8]
  }

  // Unchecked: the memo is one thread's (``current``), and nothing it calls reaches back into
  // it, so no access can overlap; the runtime's check looks up a thread-local at every access,
  // for every reader of every publish batch.
  @exclusivity(unchecked) private var source: [UInt8] = []
  @exclusivity(unchecked) private var address: UnsafeRawPointer?
  @exclusivity(unchecked) private var encodings: [Held] = []
  /// Room an encoding may write into before it copies out the result: this thread's, reused.
  @exclusivity(unchecked) private var scratch: [UInt8] = []

  /// This thread's memo, made at its first use and released when the thread ends.
  private static var current: DeliveryEncodingMemo {
    if let stored = pthread_getspecific(key) {
      return Unmanaged<DeliveryEncodingMemo>.fromOpaque(stored).takeUnretainedValue()
    }
    let memo = DeliveryEncodingMemo()
    pthread_setspecific(key, Unmanaged.passRetained(memo).toOpaque())
    return memo
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { stored in
      guard let stored else { return }
      Unmanaged<DeliveryEncodingMemo>.fromOpaque(stored).release()
    }
    return key
  }()
}
