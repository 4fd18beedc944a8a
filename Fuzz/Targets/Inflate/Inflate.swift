import FuzzSupport

@testable import Deflate

/// Fuzzes the inflate path with the input both as compressed bytes from a peer and as plain
/// bytes to send through a deflate and inflate pair.
///
/// Properties beyond not crashing: no piece of output is larger than the decompressor's chunk
/// size; a consumer's limit stops decompression at once and for good; cutting the compressed
/// input differently changes neither the outcome nor the output; and a round trip through two
/// ``WireCompression``s gives back every message as soon as its compressed bytes arrive.
@main
enum InflateTarget {
  /// The most plain bytes the limited consumer takes, as a connection's line limit would.
  private static let consumerLimit = 64 * 1024

  /// What inflating some input gave: all the output and whether the stream failed.
  private struct Outcome: Equatable {
    var output: [UInt8] = []
    var failed = false
  }

  /// Stands for whatever a consumer throws to refuse more output.
  private struct OverLimit: Error {}

  /// Starts libFuzzer, which calls ``check(_:)`` with each input.
  static func main() {
    FuzzDriver.run { data, size in
      InflateTarget.check(FuzzDriver.bytes(data, size))
      return 0
    }
  }

  private static func check(_ input: UnsafeRawBufferPointer) {
    var choices = FuzzChoices(input)
    let whole = inflate(input, [0..<input.count])
    let pieces = choices.pieces(of: input.count, maxPiece: choices.next(in: 1...64))
    let split = inflate(input, pieces)
    if whole.failed || split.failed {
      require(whole.failed == split.failed, "one read failed \(whole.failed), reads \(pieces) not")
      let shorter = min(whole.output.count, split.output.count)
      require(
        whole.output.prefix(shorter) == split.output.prefix(shorter),
        "one read and reads \(pieces) give different output before failing")
    } else {
      require(whole == split, "one read and reads \(pieces) give different output")
    }
    checkLimit(input, pieces)
    checkRoundTrip(input, &choices)
  }

  /// Inflates `input` fed in `pieces`, stopping at the first failure.
  private static func inflate(_ input: UnsafeRawBufferPointer, _ pieces: [Range<Int>]) -> Outcome {
    var outcome = Outcome()
    guard let decompressor = try? InflateDecompressor() else {
      require(false, "zlib could not set up a stream")
      return outcome
    }
    for piece in pieces {
      do {
        try decompressor.decompress(UnsafeRawBufferPointer(rebasing: input[piece])) { chunk in
          require(
            !chunk.isEmpty && chunk.count <= InflateDecompressor.maximumChunkSize,
            "a chunk of \(chunk.count) bytes")
          outcome.output.append(contentsOf: chunk)
        }
      } catch {
        outcome.failed = true
        break
      }
    }
    return outcome
  }

  /// A consumer that refuses output past a limit gets no more after refusing, and the stream
  /// then refuses all further input.
  private static func checkLimit(_ input: UnsafeRawBufferPointer, _ pieces: [Range<Int>]) {
    guard let decompressor = try? InflateDecompressor() else { return }
    var taken = 0
    var refused = false
    for piece in pieces {
      do {
        try decompressor.decompress(UnsafeRawBufferPointer(rebasing: input[piece])) { chunk in
          require(!refused, "output arrived after the consumer refused")
          guard taken + chunk.count <= consumerLimit else {
            refused = true
            throw OverLimit()
          }
          taken += chunk.count
        }
      } catch {
        if case .consumerFailed(let cause) = error {
          require(refused && cause is OverLimit, "consumerFailed(\(cause)) without a refusal")
        } else {
          require(!refused, "the consumer refused but the error is \(error)")
        }
        break
      }
    }
    guard refused else { return }
    do {
      try decompressor.decompress(UnsafeRawBufferPointer(rebasing: input[...])) { _ in
        require(false, "output after the consumer refused")
      }
      require(input.isEmpty, "the stream accepted input after the consumer refused")
    } catch {
      guard case .streamUnusable = error else {
        require(false, "after a refusal the stream throws \(error), not streamUnusable")
        return
      }
    }
  }

  /// Sends `input` as messages through a client's deflate and a server's inflate: after each
  /// message's compressed bytes, the server has exactly the messages so far.
  private static func checkRoundTrip(_ input: UnsafeRawBufferPointer, _ choices: inout FuzzChoices)
  {
    guard let client = try? WireCompression(), let server = try? WireCompression() else {
      require(false, "zlib could not set up a stream")
      return
    }
    var received: [UInt8] = []
    let messages = choices.pieces(of: input.count, maxPiece: choices.next(in: 1...512))
    for message in messages {
      var compressed: [UInt8] = []
      client.deflate(UnsafeRawBufferPointer(rebasing: input[message]), appendingTo: &compressed)
      // The compressed bytes arrive in reads of their own sizes, as from a socket.
      for read in choices.pieces(of: compressed.count, maxPiece: choices.next(in: 1...64)) {
        // A closure that returns the error rather than throwing it: Swift 6.3's optimizer
        // crashes on a typed-throws closure passed to withUnsafeBytes here.
        let failure = compressed[read].withUnsafeBytes { bytes -> CompressionError? in
          do throws(CompressionError) {
            try server.inflate(bytes) { received.append(contentsOf: $0) }
            return nil
          } catch {
            return error
          }
        }
        require(failure == nil, "inflating what deflate produced failed: \(failure!)")
      }
      require(
        received.elementsEqual(input[..<message.upperBound]),
        "after \(message.upperBound) of \(input.count) bytes the server has \(received.count)")
    }
  }
}
