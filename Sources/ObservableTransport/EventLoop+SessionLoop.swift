import ObservablePOSIX
import ObservableSession

/// The event loop is where a session's later answers and ended subscriptions go back to.
extension EventLoop: SessionLoop {}
