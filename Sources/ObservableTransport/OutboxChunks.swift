import Synchronization

/// Bytes queued for one connection as the arrays they were queued in, in order, not copies.
///
/// A publish encodes a value once and hands every subscriber the same array; queuing that
/// array, a reference count, instead of copying its bytes into each subscriber's buffer is
/// what makes a broadcast cost no copy per subscriber (18 % of the server's CPU at 100
/// subscribers). Arrays are immutable once shared, so a chunk queued here can never change
/// under a send, and each reference is released once, by ARC, when it is written or dropped.
/// Every queued array holds whole units of its framing (lines, SSE events, WebSocket frames),
/// so a unit never spans two chunks.
struct OutboxChunks {
  /// The arrays, in the order they go out.
  private(set) var chunks: [OutboxChunk] = []
  /// How many bytes the chunks hold together.
  private(set) var byteCount = 0

  /// Whether no bytes are queued.
  var isEmpty: Bool { byteCount == 0 }

  /// Queues `bytes` behind the chunks queued before; `census` counts the reference in a
  /// debug build.
  mutating func append(_ bytes: [UInt8], census: ChunkCensus?) {
    guard !bytes.isEmpty else { return }
    #if DEBUG
      chunks.append(OutboxChunk(bytes: bytes, reference: census.map(ChunkReference.init)))
    #else
      chunks.append(OutboxChunk(bytes: bytes))
    #endif
    byteCount += bytes.count
  }

  /// Drops every chunk, keeping the list's capacity.
  mutating func removeAll() {
    chunks.removeAll(keepingCapacity: true)
    byteCount = 0
  }

  /// Appends the bytes of every chunk to `target`: one copy, for a connection that frames,
  /// compresses or encrypts what it sends.
  func copyBytes(to target: inout [UInt8]) {
    target.reserveCapacity(target.count + byteCount)
    for chunk in chunks { target.append(contentsOf: chunk.bytes) }
  }
}

/// One array queued in ``OutboxChunks``.
struct OutboxChunk {
  /// The bytes, shared with every other connection the same array was queued for.
  let bytes: [UInt8]
  #if DEBUG
    /// Counts this reference in its server's census while it lives.
    let reference: ChunkReference?
  #endif
}

/// How many chunk references the outboxes and writers of one server hold, in a debug build:
/// once every connection has written or dropped what it was given it is zero, which shows that
/// each reference is released, and released once.
package final class ChunkCensus: Sendable {
  package init() {}

  /// The chunk references held now.
  package var live: Int { count.load(ordering: .relaxed) }

  fileprivate func add(_ delta: Int) {
    count.add(delta, ordering: .relaxed)
  }

  private let count = Atomic<Int>(0)
}

#if DEBUG
  /// One queued reference to a chunk, counted in a ``ChunkCensus`` from its creation to its
  /// release.
  final class ChunkReference: Sendable {
    init(_ census: ChunkCensus) {
      self.census = census
      census.add(1)
    }

    deinit { census.add(-1) }

    private let census: ChunkCensus
  }
#endif
