import Locking
import WebSocket

/// Text frames compressed without context takeover, made once per delivered value for every
/// WebSocket subscriber whose compressor has the same settings: the "prepared message" of
/// other servers.
///
/// A connection that negotiated `server_no_context_takeover` compresses each message from an
/// empty window, so its compressed frame depends only on the message and the compressor's
/// settings (window bits, level, memory level), never on what the connection was sent before.
/// One compressor per setting then serves every such connection, and the
/// `DeliveryEncodingMemo` shares its frames the way it shares SSE events. Connections that keep
/// their context compress at write time with their own compressor, as before.
///
/// Called on any publisher's thread: the compressor is behind a lock, taken once per value,
/// not once per subscriber.
package final class SharedDeflateFrames: DeliveryEncoding {
  /// The encoding for a connection that compresses with `parameters`, shared with every other
  /// connection of the same settings; nil when the connection keeps its context (its frames
  /// are its own) or zlib cannot start.
  package static func encoding(for parameters: PerMessageDeflateParameters) -> SharedDeflateFrames?
  {
    guard parameters.serverNoContextTakeover else { return nil }
    let settings = Settings(
      windowBits: parameters.deflateWindowBits, level: parameters.compressionLevel,
      memoryLevel: parameters.memoryLevel)
    return registry.withLock { encodings in
      if let existing = encodings[settings] { return existing }
      guard let made = try? SharedDeflateFrames(parameters) else { return nil }
      encodings[settings] = made
      return made
    }
  }

  /// One compressed text frame per line of `lines`.
  package func encode(_ lines: [UInt8]) -> [UInt8] {
    encoder.withLock { encoder in
      var frames: [UInt8] = []
      frames.reserveCapacity(lines.count + 16)
      encoder.appendTextMessages(lines: lines, to: &frames)
      return frames
    }
  }

  private init(_ parameters: PerMessageDeflateParameters) throws(ZlibFailure) {
    encoder = Locked(try WebSocketFrameEncoder(deflate: parameters))
  }

  private let encoder: Locked<WebSocketFrameEncoder>

  /// What makes two connections' compressed frames the same bytes.
  private struct Settings: Hashable {
    var windowBits: Int32
    var level: Int32
    var memoryLevel: Int32
  }

  /// Every encoding made, one per setting and kept for the life of the process: a server's
  /// policy fixes level and memory level, so there are at most seven (window bits 9...15).
  private static let registry = Locked<[Settings: SharedDeflateFrames]>([:])
}
