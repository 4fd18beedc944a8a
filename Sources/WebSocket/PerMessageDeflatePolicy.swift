/// What the server is willing to do for permessage-deflate (RFC 7692), before any offer.
public struct PerMessageDeflatePolicy: Sendable, Hashable {
  /// Whether to accept offers at all; a server may always decline.
  public var isEnabled: Bool
  /// The largest window the server compresses with (9...15). A smaller window costs less
  /// memory per connection and compresses less.
  public var serverMaxWindowBits: Int
  /// Reset the server's compressor after every message even when the client allows
  /// context takeover: less compression, no history kept between messages.
  public var serverNoContextTakeover: Bool
  /// Ask the client to reset its compressor after every message.
  public var clientNoContextTakeover: Bool
  /// When the client offers `client_max_window_bits` without a value, ask for this window;
  /// nil leaves the client at 15.
  public var clientMaxWindowBits: Int?
  /// zlib's compression level, 1 (fast) to 9 (small).
  public var compressionLevel: Int32
  /// zlib's `memLevel`, 1...9: the compressor's hash table is `2^(memLevel + 9)` bytes.
  public var memoryLevel: Int32

  /// A policy; the defaults accept what browsers offer with zlib's usual settings.
  public init(
    isEnabled: Bool = true, serverMaxWindowBits: Int = 15, serverNoContextTakeover: Bool = false,
    clientNoContextTakeover: Bool = false, clientMaxWindowBits: Int? = nil,
    compressionLevel: Int32 = 6, memoryLevel: Int32 = 8
  ) {
    self.isEnabled = isEnabled
    self.serverMaxWindowBits = min(15, max(9, serverMaxWindowBits))
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.clientMaxWindowBits = clientMaxWindowBits.map { min(15, max(8, $0)) }
    self.compressionLevel = min(9, max(1, compressionLevel))
    self.memoryLevel = min(9, max(1, memoryLevel))
  }

  /// No compression.
  public static let disabled = PerMessageDeflatePolicy(isEnabled: false)

  /// For a server with many connections: zlib's defaults hold about 256 KiB to compress
  /// and 32 KiB to decompress per connection; this holds about 32 KiB and, when the client
  /// lets the server choose its window (browsers do), 4 KiB. Messages of a line or two
  /// compress as well with a 4 KiB window, since context takeover matches recent lines.
  public static let lean = PerMessageDeflatePolicy(
    serverMaxWindowBits: 12, clientMaxWindowBits: 12, memoryLevel: 5)
}
