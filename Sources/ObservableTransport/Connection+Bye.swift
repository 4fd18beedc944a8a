import ObservableFraming
import ObservableSession

/// The client's own `bye`. Loop thread only.
extension Connection {
  /// Closes once the `bye` reply is written, as a finish does; a WebSocket peer gets close code
  /// 1000 (normal closure) after it, not the 1008 of a policy violation.
  package func finishAsAsked(_ reason: String) {
    loop.assertInLoop()
    finish(reason, saying: .reply(nil))
  }
}
