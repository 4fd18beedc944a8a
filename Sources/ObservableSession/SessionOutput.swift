import ObservableWire
import TLS

/// The connection as its session sees it: where replies go, and the few things the protocol
/// asks of the transport. Used on the connection's loop thread only.
///
/// A TCP connection and a WebSocket connection both implement it, so the protocol knows
/// nothing of sockets, framing or compression.
package protocol SessionOutput: AnyObject {
  /// Who is on the other side, for logs.
  var peer: String { get }

  /// Queues whole reply lines for the client, after everything queued before.
  func send(_ lines: [UInt8])

  /// Sends `reply` and then switches both directions to deflate for the rest of the
  /// connection, with nothing slipped in between.
  ///
  /// - Throws: ``ErrorCode/unsupported`` when the transport cannot compress this way.
  func startCompression(after reply: [UInt8]) throws(ProtocolError)

  /// The client authenticated: the transport lifts the tighter limits it keeps for clients
  /// that have not (a short line, a small output queue).
  func authenticated()

  /// Closes the connection once what is queued has been written; reads nothing more.
  func finish(_ reason: String)

  /// Runs `task` on the loop thread after `delay`, unless the connection closed first.
  func schedule(in delay: Duration, _ task: @escaping () -> Void)

  /// The names in the client's TLS certificate, when it presented one the server trusts.
  var peerCertificate: TLSPeerCertificate? { get }

  /// The loop the connection lives on, where answers that come later from another thread
  /// (the cluster's) go back to.
  var sessionLoop: any SessionLoop { get }
}
