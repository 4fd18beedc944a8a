import Glibc
import ObservableFraming

/// The last value a ``DeliveryEncoding`` encoded on this thread, so that a value delivered to
/// many subscribers of one encoding (SSE readers) is encoded once, not once per subscriber.
///
/// A topic hands every observer the same array, one after another on the publisher's thread:
/// the memo keeps that array and its encoding, and the next observer given an array with the
/// same storage reuses the encoding. Holding the array keeps its storage alive and shared, so
/// storage at the same address is the same bytes (a write would have copied it). One memo per
/// thread, so that no lock is taken per delivery.
final class DeliveryEncodingMemo {
  /// `lines` encoded by `encoding`, made now or reused from the previous call on this thread.
  static func encode(_ lines: [UInt8], by encoding: any DeliveryEncoding) -> [UInt8] {
    let memo = current
    let address = lines.withUnsafeBytes { $0.baseAddress }
    if memo.encoding === encoding, memo.address == address, memo.source.count == lines.count,
      address != nil
    {
      return memo.encoded
    }
    memo.encoded = encoding.encode(lines)
    memo.source = lines
    memo.address = address
    memo.encoding = encoding
    return memo.encoded
  }

  private var source: [UInt8] = []
  private var address: UnsafeRawPointer?
  private var encoded: [UInt8] = []
  private var encoding: (any DeliveryEncoding)?

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
