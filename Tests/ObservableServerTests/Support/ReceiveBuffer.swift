import Glibc

/// The receive buffer (`SO_RCVBUF`) of a test's socket, which tests shrink to stall a reader.
enum ReceiveBuffer {
  /// Makes the receive buffer of `fd` a few KB: the server's sends to it are cut short until
  /// it reads, and what does not fit waits in the server.
  static func shrink(_ fd: Int32) {
    set(fd, to: 4096)
  }

  /// Sets the receive buffer of `fd` to `bytes`.
  static func set(_ fd: Int32, to bytes: Int32) {
    var size = bytes
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Makes the receive buffer of `fd`, shrunk after it connected, large again, before a stalled
  /// reader reads what waits for it.
  ///
  /// Shrunk on an open connection, the buffer is smaller than the window the kernel already
  /// advertised, so what the server sends beyond it is dropped, and each drop waits out a
  /// retransmission timeout: a stalled reader took 12 s to drain 400 KB on loopback, 0.3 s with
  /// its buffer grown back. The stall itself is over by then, so the test still sees the
  /// server's sends cut short; only the reading that follows is quicker.
  static func growForDraining(_ fd: Int32) {
    set(fd, to: 1 << 20)
  }
}
