/// Collects a request head from bytes arriving in any split and parses it once the empty
/// line arrives.
///
/// Memory is bounded by `maximumHeadBytes`: past it the answer is 431, whatever follows.
/// Bytes after the head are not consumed, so a caller can hand them to the next stage.
/// After a complete head the parser starts over for the next request; after a failure it
/// keeps failing, since the connection is to be closed.
public struct HTTPRequestHeadParser: Sendable {
  /// The result of feeding bytes.
  public enum Outcome: Sendable, Hashable {
    /// The head is not complete yet; every byte given was consumed.
    case needMore
    /// The head is complete; `consumed` bytes of the latest input belonged to it.
    case complete(HTTPRequestHead, consumed: Int)
    /// The head is unacceptable; answer `error.status` and close.
    case failed(HTTPRequestHeadError)
  }

  /// The largest head accepted, request line and terminating empty line included.
  public let maximumHeadBytes: Int
  /// The head so far, never longer than `maximumHeadBytes`.
  private var buffer: [UInt8] = []
  /// Where the line being received starts in `buffer`.
  private var lineStart = 0
  /// Bytes seen so far for this head, including skipped leading empty lines.
  private var received = 0
  /// Set once a head is refused: the connection is past saving.
  private var failure: HTTPRequestHeadError?

  /// A parser refusing heads longer than `maximumHeadBytes` (8 KiB unless told).
  public init(maximumHeadBytes: Int = 8192) {
    self.maximumHeadBytes = max(16, maximumHeadBytes)
  }

  /// Feeds the next bytes received.
  public mutating func parse(_ bytes: some Collection<UInt8>) -> Outcome {
    if let failure { return .failed(failure) }
    var consumed = 0
    for byte in bytes {
      consumed += 1
      received += 1
      guard received <= maximumHeadBytes else {
        return fail(.requestHeaderFieldsTooLarge, "head longer than \(maximumHeadBytes) bytes")
      }
      guard byte == UInt8(ascii: "\n") else {
        buffer.append(byte)
        continue
      }
      var lineEnd = buffer.count
      if lineEnd > lineStart && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      if lineEnd > lineStart {
        buffer.append(byte)
        lineStart = buffer.count
      } else if lineStart == 0 {
        // RFC 9112 section 2.2: ignore empty lines before the request line.
        buffer.removeAll(keepingCapacity: true)
      } else {
        let result = HTTPHeadGrammar.parse(buffer[..<lineStart])
        buffer.removeAll(keepingCapacity: false)
        lineStart = 0
        received = 0
        switch result {
        case .success(let head): return .complete(head, consumed: consumed)
        case .failure(let error):
          failure = error
          return .failed(error)
        }
      }
    }
    return .needMore
  }

  private mutating func fail(_ status: HTTPStatus, _ reason: String) -> Outcome {
    let error = HTTPRequestHeadError(status, reason)
    failure = error
    buffer = []
    return .failed(error)
  }
}
