/// The permessage-deflate settings both ends agreed on, and the response parameter text.
public struct PerMessageDeflateParameters: Sendable, Hashable {
  /// The server resets its compressor after each message.
  public var serverNoContextTakeover: Bool
  /// The client resets its compressor after each message, so the server's decompressor does.
  public var clientNoContextTakeover: Bool
  /// The window the server compresses with; zlib cannot deflate with 8, see `deflateWindowBits`.
  public var serverMaxWindowBits: Int
  /// The window the client compresses with, and so the server's decompressor window.
  public var clientMaxWindowBits: Int
  /// The `Sec-WebSocket-Extensions` value to answer with.
  public var responseValue: String
  /// zlib's compression level.
  public var compressionLevel: Int32
  /// zlib's `memLevel`.
  public var memoryLevel: Int32

  /// The compressor's window: zlib refuses raw deflate with 8 bits, and with 9 it never
  /// refers further back than 512 - 262 = 250 bytes, so a peer inflating with a 256-byte
  /// window still decodes it.
  public var deflateWindowBits: Int32 { Int32(max(9, serverMaxWindowBits)) }

  /// Accepts the first acceptable permessage-deflate offer, or nil when there is none or the
  /// policy is disabled. An offer with an unknown, repeated or malformed parameter is declined.
  public static func negotiate(
    offers: [WebSocketExtensionOffer], policy: PerMessageDeflatePolicy
  ) -> PerMessageDeflateParameters? {
    guard policy.isEnabled else { return nil }
    return offers.lazy.filter { $0.name == "permessage-deflate" }
      .compactMap { accept($0, policy: policy) }.first
  }

  private static func accept(
    _ offer: WebSocketExtensionOffer, policy: PerMessageDeflatePolicy
  ) -> PerMessageDeflateParameters? {
    var seen: Set<String> = []
    var serverNoTakeover = false
    var clientNoTakeover = false
    var serverBits: Int?
    var clientBitsOffered = false
    var clientBits: Int?
    for parameter in offer.parameters {
      guard seen.insert(parameter.name).inserted else { return nil }
      switch (parameter.name, parameter.value) {
      case ("server_no_context_takeover", nil): serverNoTakeover = true
      case ("client_no_context_takeover", nil): clientNoTakeover = true
      case ("server_max_window_bits", let value?):
        guard let bits = windowBits(value) else { return nil }
        serverBits = bits
      case ("client_max_window_bits", let value):
        clientBitsOffered = true
        if let value {
          guard let bits = windowBits(value) else { return nil }
          clientBits = bits
        }
      default: return nil
      }
    }
    var response = ["permessage-deflate"]
    let serverNoContextTakeover = serverNoTakeover || policy.serverNoContextTakeover
    if serverNoContextTakeover { response.append("server_no_context_takeover") }
    let clientNoContextTakeover = clientNoTakeover || policy.clientNoContextTakeover
    if clientNoContextTakeover { response.append("client_no_context_takeover") }
    let serverWindow = min(serverBits ?? 15, policy.serverMaxWindowBits)
    // Firefox closes when the answer names a parameter it did not offer: echo only offers.
    if serverBits != nil { response.append("server_max_window_bits=\(serverWindow)") }
    // The response must carry a value and RFC 7692 section 7.1.2.2 allows it only when
    // offered; without it the decompressor keeps the full window, which any client fits in.
    var clientWindow = 15
    if clientBitsOffered {
      clientWindow = min(clientBits ?? 15, policy.clientMaxWindowBits ?? 15)
      if clientWindow < 15 { response.append("client_max_window_bits=\(clientWindow)") }
    }
    return PerMessageDeflateParameters(
      serverNoContextTakeover: serverNoContextTakeover,
      clientNoContextTakeover: clientNoContextTakeover, serverMaxWindowBits: serverWindow,
      clientMaxWindowBits: clientWindow, responseValue: response.joined(separator: "; "),
      compressionLevel: policy.compressionLevel, memoryLevel: policy.memoryLevel)
  }

  /// 8...15 written without leading zeros (RFC 7692 section 7.1.2); nil otherwise.
  private static func windowBits(_ text: String) -> Int? {
    guard let first = text.first, first != "0", text.allSatisfy(\.isASCII),
      let bits = Int(text), (8...15).contains(bits)
    else { return nil }
    return bits
  }
}
