import Testing

@testable import ObservableServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemdEnvironmentTests {
  /// Socket activation decisions that depend only on the environment.
  ///
  /// No test here names this process in `LISTEN_PID` together with a positive descriptor
  /// count, because libsystemd would then take over whatever descriptor 3 is in the test
  /// process; real activation is covered end to end with `systemd-socket-activate`.
  @Suite struct SocketActivationEnvironmentTests {
    static func environment(fds: String?, pid: String?) -> [String: String?] {
      ["LISTEN_FDS": fds, "LISTEN_PID": pid, "LISTEN_FDNAMES": fds == nil ? nil : "tcp"]
    }

    static func activationVariablesRemain() -> Bool {
      let names = ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]
      return names.contains { name in getenv(name) != nil }
    }

    @Test func withoutListenFdsTheProcessIsNotActivated() throws {
      try EnvironmentOverride.with(Self.environment(fds: nil, pid: nil)) {
        let sockets = try SocketActivation.takeSockets()
        #expect(sockets == nil)
      }
    }

    @Test(arguments: [Optional("1"), nil])
    func variablesMeantForAnotherProcessAreIgnoredAndRemoved(pid: String?) throws {
      try EnvironmentOverride.with(Self.environment(fds: "2", pid: pid)) {
        let sockets = try SocketActivation.takeSockets()
        #expect(sockets == nil)
        #expect(!Self.activationVariablesRemain())
      }
    }

    @Test func malformedListenFdsForThisProcessIsAnError() {
      EnvironmentOverride.with(Self.environment(fds: "two", pid: String(getpid()))) {
        let error = #expect(throws: SocketActivationError.self) {
          try SocketActivation.takeSockets()
        }
        #expect(error == .environmentInvalid(errno: EINVAL))
        #expect(error?.description.contains("LISTEN_FDS") == true)
        // libsystemd removes the variables even when it rejects them.
        #expect(!Self.activationVariablesRemain())
      }
    }
  }
}
