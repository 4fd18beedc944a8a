import Testing

/// Parent of every suite that changes environment variables.
///
/// The environment is global to the test process and libsystemd reads it directly, so those
/// suites must not overlap; `.serialized` on this parent runs all of its children one test
/// at a time, while unrelated suites still run in parallel.
@Suite(.serialized) enum SystemdEnvironmentTests {}
