import CLinux
import Dispatch
import Glibc
import Locking
import ObservablePOSIX
import Synchronization

/// Gives the memory freed by large releases back to the system, with `malloc_trim`.
///
/// glibc keeps freed memory in its arenas: after 1,500 compressed connections closed the server
/// still held 365 MiB with none open, and after 200 slow readers were reset with data pending
/// 417 MiB; `malloc_trim(0)` brought both to 18 MiB. A fixed `M_MMAP_THRESHOLD` of 64 KiB
/// (so that buffers are mapped and unmapped on their own) left 112 and 156 MiB, and
/// `M_ARENA_MAX=1` left more than the default. So the server trims, at most once per
/// ``interval`` and only after ``threshold`` bytes were released since the last trim: closed
/// connections report what they held, and a fall of the queued output counts too. The trim
/// runs on a thread of its own, since it can take milliseconds on a large heap.
///
/// The small releases stay in the heap (``freeTrimThreshold``): `free` itself gave the top of
/// an arena back whenever 128 KiB of it were free, and a reader's queue filling and emptying
/// made the server fault the same pages back in, tens of thousands of times a second.
package final class HeapTrim: Sendable {
  /// The bytes released since the last trim past which a trim is worth its cost.
  static let threshold = 32 << 20
  /// How much free memory at the top of an arena `free` leaves there before it gives the rest
  /// back, set for the whole process at ``start(on:queuedOutput:)``; glibc's default is
  /// 128 KiB. Memory freed past this in large releases still goes back through this trim.
  ///
  /// With the default, one SSE reader of 3,000,000 values made the server take 9,000 to
  /// 50,000 page faults a round; with this, a few, and the median CPU per delivery of such a
  /// reader fell from 260 to 233 ns (`Docs/performance.md`, round three, session 13). Setting
  /// it also fixes glibc's mmap threshold at its 128 KiB start, so a buffer larger than that
  /// is mapped and unmapped on its own, which returns it at once.
  static let freeTrimThreshold = 16 << 20
  /// How often the releases are looked at.
  static let interval: Duration = .seconds(1)
  /// What a compressed connection's zlib streams take from the heap.
  static let compressionBytes = 300 << 10

  /// Nothing released yet; one per server.
  package init() {}

  /// Counts `bytes` freed by a connection that closed. Any thread.
  func released(_ bytes: Int) {
    guard bytes > 0 else { return }
    releasedBytes.add(bytes, ordering: .relaxed)
  }

  /// Looks at the releases every ``interval`` on `loop`, counting falls of `queuedOutput` too.
  package func start(on loop: EventLoop, queuedOutput: QueuedOutput) {
    _ = mallopt(M_TRIM_THRESHOLD, Int32(Self.freeTrimThreshold))
    let timer = RepeatingTimer(on: loop, every: Self.interval, after: Self.interval) {
      [self] in
      check(queued: queuedOutput.bytes)
    }
    self.timer.withLock { $0 = timer }
    timer.start()
  }

  /// Stops looking.
  package func stop() {
    timer.withLock { $0.take() }?.cancel()
  }

  private func check(queued: Int) {
    let fallen = queuedPeak.withLock { peak in
      defer { peak = max(peak, queued) }
      return max(0, peak - queued)
    }
    guard releasedBytes.load(ordering: .relaxed) + fallen >= Self.threshold else { return }
    releasedBytes.store(0, ordering: .relaxed)
    queuedPeak.withLock { $0 = queued }
    trimming.async { _ = malloc_trim(0) }
  }

  private let releasedBytes = Atomic<Int>(0)
  /// The most output queued at a look since the last trim.
  private let queuedPeak = Locked(0)
  private let timer = Locked<RepeatingTimer?>(nil)
  private let trimming = DispatchQueue(label: "observable-heap-trim")
}
