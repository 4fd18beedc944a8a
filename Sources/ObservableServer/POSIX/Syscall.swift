import Glibc

/// What a call on a non-blocking descriptor did.
enum IOResult<Value> {
  /// The call finished and returned this value.
  case done(Value)
  /// The descriptor was not ready; try again when epoll says so.
  case wouldBlock
}

/// Runs one system call, the single place that retries `EINTR` and reports `EAGAIN`.
///
/// Every POSIX call in the server goes through here, so interrupted calls and non-blocking
/// descriptors are handled the same way everywhere.
///
/// - Parameters:
///   - name: The call's name, for the error.
///   - body: Makes the call and returns its result; `-1` means failure with `errno` set.
/// - Returns: The result, or ``IOResult/wouldBlock`` for `EAGAIN`.
/// - Throws: ``SystemError`` for any other failure.
@inline(__always)
func syscall<Result: FixedWidthInteger>(
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

/// Runs a system call that cannot block, and returns its result.
@inline(__always)
func blockingSyscall<Result: FixedWidthInteger>(
  _ name: StaticString,
  _ body: () -> Result
) throws(SystemError) -> Result {
  switch try syscall(name, body) {
  case .done(let value): return value
  case .wouldBlock: throw SystemError(call: "\(name)", code: EAGAIN)
  }
}
