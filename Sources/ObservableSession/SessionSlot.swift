/// One value of a ``Session`` at a fixed address, which the session reaches through a pointer.
///
/// As a stored `var` of the session, a class, every use of such a value paid a dynamic
/// exclusivity check (`swift_beginAccess`, a thread-local lookup and a search of the thread's
/// open accesses): two per publish on the busiest path, about 150 instructions of a publish's
/// 2,800 over TLS. A session is used on its loop thread only, and the values it keeps in slots
/// (its publish batch and its access decisions) are never lent across a call that could reach
/// the session again, so the check could never fire; through a pointer it is not made.
package struct SessionSlot<Value>: ~Copyable {
  /// Where the value lives, from `init` until `deinit`.
  let pointer: UnsafeMutablePointer<Value>

  /// A slot holding `value`.
  init(_ value: Value) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: value)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}
