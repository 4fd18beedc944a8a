/// Compresses one short message, alone, into a raw deflate block with the fixed Huffman codes
/// (RFC 1951 section 3.2.6), followed by the empty stored block of a sync flush without its
/// `00 00 ff ff`: what permessage-deflate sends for a message compressed from an empty window.
///
/// zlib builds the dynamic Huffman trees of every block it flushes (for the literals, the
/// distances and the code lengths) even when it then writes the fixed codes, as it does for
/// a block of a few dozen bytes: for a 62-byte line that is about half of the 40,000
/// instructions a `deflate` after a `deflateReset` costs. This writes the fixed codes
/// directly after a greedy match search in a small hash table, for about a tenth of that.
/// Above ``largestMessage`` the dynamic trees compress better and their cost is spread over
/// more bytes, so longer messages are zlib's.
package enum FixedCodeDeflater {
  /// The longest message compressed here: up to 128 bytes the fixed codes are within a few
  /// percent of zlib's output for JSON lines; at 200 bytes they are some 20 % longer.
  package static let largestMessage = 128

  /// Appends `message`, compressed, to `out`; `maximumDistance` bounds how far back a match
  /// may reach (the peer's window less zlib's margin, 250 for a 9-bit window).
  package static func compress(
    _ message: UnsafeRawBufferPointer, maximumDistance: Int, appendingTo out: inout [UInt8]
  ) {
    precondition(message.count <= largestMessage)
    // At most 9 bits a byte, the block's 3 + 7 bits and the flush's 3, and a word of slack
    // for the writer's 32-bit stores.
    let room = message.count + message.count / 8 + 8
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
      FixedCodes.literals.withUnsafeBufferPointer { literals in
        var bits = BitWriter(into: buffer.baseAddress!, literals: literals)
        // BFINAL 0, BTYPE 01 (fixed codes), written least significant bit first.
        bits.write(0b010, bits: 3)
        if let base = message.baseAddress {
          writeSymbols(
            of: base.assumingMemoryBound(to: UInt8.self), message.count, maximumDistance, &bits)
        }
        bits.writeSymbol(256)
        // The sync flush's empty stored block: BFINAL 0, BTYPE 00, then up to a byte
        // boundary. Its LEN and NLEN (`00 00 ff ff`) are what permessage-deflate leaves out.
        bits.write(0, bits: 3)
        bits.finish()
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<bits.count]))
      }
    }
  }

  /// Writes the message as literals and matches: at each position, the last earlier position
  /// whose three bytes hashed alike, taken when its bytes match for three or more.
  private static func writeSymbols(
    of bytes: UnsafePointer<UInt8>, _ count: Int, _ maximumDistance: Int, _ bits: inout BitWriter
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: hashSize) { latest in
      // Positions plus one, so zero says none; a message of 128 bytes fits in a byte.
      latest.initialize(repeating: 0)
      var position = 0
      while position + 3 <= count {
        let hash = hashOf(bytes + position)
        let candidate = Int(latest[hash]) - 1
        latest[hash] = UInt8(truncatingIfNeeded: position + 1)
        var length = 0
        if candidate >= 0, position - candidate <= maximumDistance {
          let longest = min(count - position, 258)
          while length < longest, bytes[candidate + length] == bytes[position + length] {
            length += 1
          }
        }
        guard length >= 3 else {
          bits.writeSymbol(Int(bytes[position]))
          position += 1
          continue
        }
        bits.writeMatch(length: length, distance: position - candidate)
        // The matched positions go into the table too, so later repeats find them.
        var skipped = position + 1
        while skipped < min(position + length, count - 2) {
          latest[hashOf(bytes + skipped)] = UInt8(truncatingIfNeeded: skipped + 1)
          skipped += 1
        }
        position += length
      }
      while position < count {
        bits.writeSymbol(Int(bytes[position]))
        position += 1
      }
    }
  }

  /// Entries in the hash table: a few times more than the positions of the longest message.
  private static let hashSize = 512

  private static func hashOf(_ at: UnsafePointer<UInt8>) -> Int {
    let word = UInt32(at[0]) | UInt32(at[1]) << 8 | UInt32(at[2]) << 16
    return Int((word &* 2_654_435_761) >> 23)
  }
}
