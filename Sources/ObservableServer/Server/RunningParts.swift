import ObservablePOSIX
import ObservableTransport
import TLS

/// The threads and sockets of a started server.
struct RunningParts: @unchecked Sendable {
  // Unchecked: listeners are only touched on their loop, through `submitAndWait`.
  var loops: [ConnectionLoop] = []
  var sockets: [Int32] = []
  var listeners: [Listener] = []
  var httpAddresses: [ListenAddress] = []
  var tlsAddresses: [ListenAddress] = []
  var httpsAddresses: [ListenAddress] = []
  /// The certificate TLS listeners serve, when there are any.
  var tls: ReloadableTLSContext?
  /// The store on disk, with `--data-dir`.
  var store: RetainedPersistence?

  var acceptLoop: EventLoop { loops[0].loop }
}
