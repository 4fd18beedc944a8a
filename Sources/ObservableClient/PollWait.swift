import Glibc

/// Waits for one socket to be ready, for a deadline, or for a ``WakePipe``, whichever is first.
enum PollWait {
  /// What ended the wait.
  enum Outcome {
    case ready
    case timedOut
    case woken
  }

  /// Polls `fd` for `events` until `deadline` (`nil`: no deadline), watching `wake` as well.
  static func wait(
    fd: Int32, events: Int16, until deadline: ContinuousClock.Instant?, wake: WakePipe
  ) -> Outcome {
    while true {
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        if left <= .zero { return .timedOut }
        let (seconds, attoseconds) = left.components
        // Rounded up, so a wait never ends a little before its deadline and spins.
        timeout = Int32(
          clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
      }
      var fds = [
        pollfd(fd: fd, events: events, revents: 0),
        pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      let count = poll(&fds, 2, timeout)
      if count < 0 {
        if errno == EINTR { continue }
        return .ready  // the call that follows reports the socket's error
      }
      if fds[1].revents != 0 { return .woken }
      if fds[0].revents != 0 { return .ready }
    }
  }
}
