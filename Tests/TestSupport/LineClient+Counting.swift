extension LineClient {
  /// Reads `count` lines as bytes, counting them without parsing them: for a test that expects
  /// exactly those lines and nothing after them (bytes past them in the last read are dropped),
  /// where parsing tens of thousands of lines would take longer than the server takes to send
  /// them. Throws ``Timeout`` at the end of the stream or when a read waits past `timeout`.
  public func skipLines(_ count: Int, timeout: Duration = .seconds(5)) throws {
    var seen = 0
    while seen < count {
      let bytes = try readAvailable(limit: 1 << 20, timeout: timeout)
      guard !bytes.isEmpty else {
        throw Timeout(description: "end of stream after \(seen) of \(count) lines")
      }
      seen += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
  }
}
