/// A session's ``PublishBatch`` at a fixed address, which the session reaches through a pointer.
///
/// As a stored `var` of the session, a class, every use of the batch paid a dynamic
/// exclusivity check (`swift_beginAccess`, a thread-local lookup), two per publish on the
/// busiest path. A session is used on its loop thread only and never lends its batch across a
/// call that could touch it again, so the check can never fire; through a pointer it is not
/// made.
package struct PublishBatchSlot: ~Copyable {
  /// Where the batch lives, from `init` until `deinit`.
  let pointer: UnsafeMutablePointer<PublishBatch>

  /// A slot holding an empty batch.
  init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: PublishBatch())
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}
