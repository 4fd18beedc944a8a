import Foundation
import Glibc
import ObservableStore
import TestSupport
import XCTest

/// A write whose completion ran survives the writer's SIGKILL: in every mode, since a committed
/// transaction is in the kernel's cache, which a killed process does not take with it (the
/// modes differ on a machine's crash, which a test cannot make).
final class StoreDurabilityTests: StoreTestCase {
  func testEveryAcknowledgedWriteSurvivesSIGKILL() throws {
    let modes: [FsyncMode] = [.always, .always, .always, .batch, .off]
    for (round, mode) in zip(1..., modes) {
      // A store of its own each round, so that no round passes on an earlier round's writes.
      let roundDirectory = directory + "/round\(round)"
      let child = try ChildProcess("observable-store-writer", [roundDirectory, mode.rawValue])
      let threshold = Int.random(in: 20...3_000)
      let reached = eventually(timeout: .seconds(30)) { child.lines.count >= threshold }
      child.signal(SIGKILL)
      XCTAssertNotNil(child.waitForExit(), "round \(round), \(mode): the writer did not die")
      XCTAssertTrue(
        reached, "round \(round), \(mode): \(child.lines.count) writes; \(child.stderr)")
      let acknowledged = child.lines.compactMap { UInt64($0) }
      XCTAssertEqual(acknowledged.count, child.lines.count, "round \(round), \(mode): a torn line")

      let (store, contents) = try open(in: roundDirectory)
      store.close()
      let kept = Set(contents.history.lazy.filter { $0.topic == "history" }.map(\.sequence))
      let lost = acknowledged.filter { !kept.contains($0) }
      XCTAssertTrue(lost.isEmpty, "round \(round), \(mode): \(lost.count) acknowledged writes lost")
      XCTAssertGreaterThanOrEqual(contents.epoch.lastSequence, acknowledged.max() ?? 0)
      let values = Dictionary(
        contents.retained.map { ($0.stream, UInt64(String(decoding: $0.value, as: UTF8.self))) },
        uniquingKeysWith: { $1 })
      let stale = acknowledged.filter { number in
        let held = values["topic.\(number % 1_000)"].flatMap { $0 }
        return (held ?? 0) < number
      }
      XCTAssertTrue(
        stale.isEmpty, "round \(round), \(mode): \(stale.count) topics hold older values")
    }
  }
}
