#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sets environment variables for the length of a closure and then puts back what was
/// there, so a test cannot leak its setup into the next one (or into the developer's
/// shell-inherited `NOTIFY_SOCKET` when tests run under systemd).
enum EnvironmentOverride {
  /// Applies `values` (`nil` removes a variable), runs `body`, and restores every listed
  /// variable, also when `body` throws. Callers must be serialized; see
  /// ``SystemdEnvironmentTests``.
  static func with<Result>(
    _ values: [String: String?], _ body: () throws -> Result
  ) rethrows -> Result {
    let saved = values.keys.map { name in (name, getenv(name).map { String(cString: $0) }) }
    defer {
      for (name, value) in saved {
        apply(name, value)
      }
    }
    for (name, value) in values {
      apply(name, value)
    }
    return try body()
  }

  private static func apply(_ name: String, _ value: String?) {
    if let value {
      setenv(name, value, 1)
    } else {
      unsetenv(name)
    }
  }
}
