import Locking

/// The server context new connections take, replaced as a whole on reload (SIGHUP).
///
/// Event loops read ``current`` when they accept a connection while the signal handler's
/// thread reloads, so the context sits behind a lock; a session keeps a reference to the
/// context it started with, so a swap never touches an open connection.
public final class ReloadableTLSContext: Sendable {
  /// The files the context is built from, read again on each reload.
  public let configuration: TLSServerConfiguration
  private let context: Locked<TLSContext>

  /// Builds the first context from `configuration`; throws what is wrong with it.
  public init(_ configuration: TLSServerConfiguration) throws(TLSConfigurationError) {
    self.configuration = configuration
    context = Locked(try TLSContext(server: configuration))
  }

  /// The context for the next connection.
  public var current: TLSContext { context.withLock { $0 } }

  /// Builds a new context from the same files and swaps it in. When that fails (a missing
  /// file, a key that does not match), the current context stays and the error says why.
  public func reload() throws(TLSConfigurationError) {
    // Built outside the lock: reading files and keys takes long enough to stall an accept.
    let fresh = try TLSContext(server: configuration)
    context.withLock { $0 = fresh }
  }
}
