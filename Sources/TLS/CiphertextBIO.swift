import COpenSSL

/// The BIO a session's OpenSSL reads ciphertext from and writes records to: a source and
/// sink over the session's ``CiphertextChannel``, without a buffer of its own.
///
/// It answers as OpenSSL's memory BIO did, so the session behaves as before: a read of an
/// empty channel says "retry" until the socket ended, then end of stream; a write takes
/// everything at once; a flush succeeds at once.
enum CiphertextBIO {
  /// The method, made once for the process and never freed (BIOs of every session use it).
  private struct Method: @unchecked Sendable {
    let pointer: OpaquePointer?
  }

  private static let method = Method(pointer: makeMethod())

  /// A BIO over `channel`, for `SSL_set_bio`; `nil` when OpenSSL has no memory. The BIO
  /// does not retain `channel`: the session keeps both, and frees the BIO (with its `SSL`)
  /// before the channel.
  static func make(over channel: CiphertextChannel) -> OpaquePointer? {
    guard let pointer = method.pointer, let bio = BIO_new(pointer) else { return nil }
    BIO_set_data(bio, Unmanaged.passUnretained(channel).toOpaque())
    BIO_set_init(bio, 1)
    return bio
  }

  private static func channel(of bio: OpaquePointer?) -> CiphertextChannel {
    Unmanaged<CiphertextChannel>.fromOpaque(BIO_get_data(bio)!).takeUnretainedValue()
  }

  private static func makeMethod() -> OpaquePointer? {
    let type = BIO_get_new_index() | BIO_TYPE_SOURCE_SINK
    guard let method = BIO_meth_new(type, "observable ciphertext") else { return nil }
    _ = BIO_meth_set_write_ex(method) { bio, data, length, written in
      observable_bio_clear_retry_flags(bio)
      if let data, length > 0 {
        CiphertextBIO.channel(of: bio).write(UnsafeRawBufferPointer(start: data, count: length))
      }
      written?.pointee = length
      return 1
    }
    _ = BIO_meth_set_read_ex(method) { bio, target, length, readBytes in
      observable_bio_clear_retry_flags(bio)
      let channel = CiphertextBIO.channel(of: bio)
      let count = target.map { channel.read(into: $0, count: length) } ?? 0
      readBytes?.pointee = count
      guard count == 0 else { return 1 }
      // Nothing yet is "retry when more arrives" until the socket ends (BIO_eof then holds).
      if !channel.incomingEnded { observable_bio_set_retry_read(bio) }
      return 0
    }
    _ = BIO_meth_set_ctrl(method) { bio, command, _, _ in
      switch command {
      case BIO_CTRL_FLUSH: 1
      case BIO_CTRL_EOF: CiphertextBIO.channel(of: bio).isAtEnd ? 1 : 0
      case BIO_CTRL_PENDING: CiphertextBIO.channel(of: bio).unread
      case BIO_CTRL_WPENDING: CiphertextBIO.channel(of: bio).outgoing.count
      default: 0
      }
    }
    return method
  }
}
