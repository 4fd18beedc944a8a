import Glibc

/// What a call on a non-blocking descriptor did.
@usableFromInline
package enum IOResult<Value> {
  /// The call finished and returned this value.
  case done(Value)
  /// The descriptor was not ready; try again when epoll says so.
  case wouldBlock
}

/// Runs one system call, the single place that retries `EINTR` and reports `EAGAIN`.
///
/// Every call whose outcome the server acts on goes through here (reads, writes, accepts,
/// `epoll_wait`, `epoll_ctl`, socket options), so interrupted calls and non-blocking
/// descriptors are handled the same way everywhere. `close(2)` is the exception, called
/// directly: Linux releases the descriptor even when it reports `EINTR`, so retrying it could
/// close a descriptor another thread has just been given.
///
/// - Parameters:
///   - name: The call's name, for the error.
///   - body: Makes the call and returns its result; `-1` means failure with `errno` set.
/// - Returns: The result, or ``IOResult/wouldBlock`` for `EAGAIN`.
/// - Throws: ``SystemError`` for any other failure.
@inlinable @inline(__always)
package func syscall<Result: FixedWidthInteger>(
  _ name: StaticString,
  _ body: () -> Result
) throws(SystemError) -> IOResult<Result> {
  while true {
    let result = body()
    if result != -1 { return .done(result) }
    let code = errno
    switch code {
    case EINTR: continue
    case EAGAIN, EWOULDBLOCK: return .wouldBlock
    default: throw SystemError(call: "\(name)", code: code)
    }
  }
}

/// Runs a system call for which `EAGAIN` is a failure, not a reason to wait for epoll (calls
/// such as `bind` or `epoll_ctl` that never wait, or a write to a full eventfd), and returns
/// its result.
@inlinable @inline(__always)
package func blockingSyscall<Result: FixedWidthInteger>(
  _ name: StaticString,
  _ body: () -> Result
) throws(SystemError) -> Result {
  switch try syscall(name, body) {
  case .done(let value): return value
  case .wouldBlock: throw SystemError(call: "\(name)", code: EAGAIN)
  }
}
