/// A listening socket the server did not open itself, such as one systemd's socket activation
/// passed to the process.
///
/// Socket activation checks each one is a listening stream socket and makes it close-on-exec
/// and non-blocking before it gets here, so it can go straight into the accept loop and
/// `--exec` children never inherit it.
public struct InheritedListener: Sendable, Equatable {
  /// The descriptor, already bound and listening; from systemd, starting at 3 in the order of
  /// the `.socket` unit's listen directives.
  public var descriptor: Int32
  /// A name for logs, such as systemd's `FileDescriptorName=` ("unknown" when the unit gave
  /// none), which tells e.g. the `tcp` socket from the `unix` one without inspecting addresses.
  public var name: String

  /// Wraps a listening descriptor.
  public init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
  }
}
