import TestSupport
import Testing
import XCTest

/// A missing tool skips a test on a developer's machine and fails it under CI.
@Suite("Required tools")
struct RequiredToolTests {
  @Test func aMissingToolFailsUnderCIAndNamesTheTool() {
    #expect(throws: RequiredTool.Missing.self) {
      try RequiredTool.require(false, "no-such-tool", environment: ["CI": "true"])
    }
    do {
      try RequiredTool.require(false, "no-such-tool", environment: ["CI": "true"])
    } catch {
      #expect("\(error)".contains("no-such-tool"))
    }
  }

  @Test func aMissingToolSkipsOutsideCI() {
    #expect(throws: XCTSkip.self) {
      try RequiredTool.require(false, "no-such-tool", environment: [:])
    }
    #expect(throws: XCTSkip.self) {
      try RequiredTool.require(false, "no-such-tool", environment: ["CI": "false"])
    }
  }

  @Test func aToolThatIsThereRunsTheTest() throws {
    try RequiredTool.require(true, "nats-server", environment: ["CI": "true"])
    #expect(RequiredTool.runs(true))
  }

  @Test func theClusterFixtureFailsUnderCIWhenNATSIsMissing() {
    // The lookup the cluster tests make, for a tool that is certainly absent.
    let absent = FileManager.default.isExecutableFile(atPath: "/nonexistent/nats-server")
    #expect(throws: RequiredTool.Missing.self) {
      try RequiredTool.require(absent, "nats-server", environment: ["CI": "true"])
    }
  }
}
