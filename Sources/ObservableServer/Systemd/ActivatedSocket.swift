/// A listening socket that the service manager opened and passed to this process.
///
/// The descriptor is already close-on-exec and non-blocking, so it can go straight into the
/// accept loop, and `--exec` children never inherit it.
struct ActivatedSocket: Sendable, Equatable {
  /// The descriptor, starting at 3 in the order of the `.socket` unit's listen directives.
  let fd: Int32
  /// The unit's `FileDescriptorName=`, or "unknown" when the unit gave none; lets the server
  /// tell e.g. the `tcp` socket from the `unix` socket without inspecting addresses.
  let name: String
}
