import Foundation
import Glibc
import ObservableStore
import TestSupport
import XCTest

/// With `always`, a write whose completion ran survives the writer's SIGKILL.
final class StoreDurabilityTests: StoreTestCase {
  func testEveryAcknowledgedWriteSurvivesSIGKILL() throws {
    for round in 1...5 {
      // A store of its own each round, so that no round passes on an earlier round's writes.
      let roundDirectory = directory + "/round\(round)"
      let child = try ChildProcess("observable-store-writer", [roundDirectory, "always"])
      let threshold = Int.random(in: 20...3_000)
      let reached = eventually(timeout: .seconds(30)) { child.lines.count >= threshold }
      child.signal(SIGKILL)
      XCTAssertNotNil(child.waitForExit(), "round \(round): the writer did not die")
      XCTAssertTrue(reached, "round \(round): \(child.lines.count) writes; \(child.stderr)")
      let acknowledged = child.lines.compactMap { UInt64($0) }
      XCTAssertEqual(acknowledged.count, child.lines.count, "round \(round): a torn line")

      let (store, contents) = try open(in: roundDirectory)
      store.close()
      let kept = Set(contents.history.lazy.filter { $0.topic == "history" }.map(\.sequence))
      let lost = acknowledged.filter { !kept.contains($0) }
      XCTAssertTrue(lost.isEmpty, "round \(round): \(lost.count) acknowledged writes lost")
      XCTAssertGreaterThanOrEqual(contents.epoch.lastSequence, acknowledged.max() ?? 0)
      let values = Dictionary(
        contents.retained.map { ($0.stream, UInt64(String(decoding: $0.value, as: UTF8.self))) },
        uniquingKeysWith: { $1 })
      let stale = acknowledged.filter { number in
        let held = values["topic.\(number % 1_000)"].flatMap { $0 }
        return (held ?? 0) < number
      }
      XCTAssertTrue(stale.isEmpty, "round \(round): \(stale.count) topics hold older values")
    }
  }
}
