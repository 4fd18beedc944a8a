import Deflate

/// Both directions of a soak client's compressed connection: raw deflate (RFC 1951) for its
/// requests, each batch ending in a sync flush so the server can act on it at once, and raw
/// inflate for what the server sends after the `compress` reply.
///
/// The zlib calls are the shared ``DeflateCompressor`` and ``InflateDecompressor``; what is
/// the soak's is the limit on the text one read may inflate to.
/// Belongs to one soak client, on the load thread.
final class SoakDeflate {
  /// Starts both streams with 32 KiB windows; `nil` when zlib cannot allocate them.
  init?() {
    guard let outgoing = try? DeflateCompressor(),
      let incoming = try? InflateDecompressor(chunkSize: 16 * 1024)
    else { return nil }
    self.outgoing = outgoing
    self.incoming = incoming
  }

  /// The compressed form of `plain`, sync flush included.
  func compress(_ plain: [UInt8]) -> [UInt8]? {
    var compressed: [UInt8] = []
    plain.withUnsafeBytes { outgoing.compress($0, appendingTo: &compressed) }
    return compressed
  }

  /// The text of `compressed`; `nil` when it is not a valid deflate stream or the text would
  /// pass `limit` bytes, so that a runaway stream cannot fill the benchmark's memory.
  func decompress(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
    var text: [UInt8] = []
    let inflated = compressed.withUnsafeBytes { raw -> Bool in
      do {
        try incoming.decompress(raw) { piece in
          text.append(contentsOf: piece)
          guard text.count <= limit else { throw LimitPassed() }
        }
        return true
      } catch {
        return false
      }
    }
    return inflated ? text : nil
  }

  /// The text of one read passed the limit; the stream is given up.
  private struct LimitPassed: Error {}

  private let outgoing: DeflateCompressor
  private let incoming: InflateDecompressor
}
