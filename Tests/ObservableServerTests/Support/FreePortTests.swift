import TestSupport
import Testing

/// The port picker the process fixtures share. A nine-port NATS cluster once failed CI because
/// two of its random picks were the same port; the picker now never repeats itself.
@Suite struct FreePortTests {
  /// 500 picks from the 12,000 ports below the ephemeral range repeat one with a probability
  /// above 99.99 % unless the picker remembers what it handed out.
  @Test func noPortIsHandedOutTwice() throws {
    let ports = try (0..<500).map { _ in try freeLoopbackPort() }
    #expect(Set(ports).count == ports.count)
  }
}
