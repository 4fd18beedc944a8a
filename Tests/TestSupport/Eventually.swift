import Glibc

/// Waits until `condition` holds, checking every 5 ms, up to `timeout`; returns whether it held.
///
/// This form blocks its thread: for synchronous tests and helpers. Disfavoured, so that an
/// `async` test that writes `await eventually { … }` with a synchronous condition gets the
/// suspending form below, which leaves the concurrency pool's few threads free, rather than
/// this one (the compiler would otherwise pick the overload whose closure type matches).
@_disfavoredOverload
public func eventually(timeout: Duration = .seconds(5), _ condition: () throws -> Bool) rethrows
  -> Bool
{
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try condition() { return true }
    usleep(5_000)
  }
  return try condition()
}

/// Waits until `condition` holds, checking every 5 ms, up to `timeout`; returns whether it held.
///
/// The suspending form, for `async` tests: it sleeps as a task, not as a thread.
public func eventually(
  timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return try await condition()
}
