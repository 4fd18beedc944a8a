import Locking
import XCTest

@testable import ObservableCluster
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// The checks on lines from other nodes, the subjects of a prefix, and the gate that puts
/// retained values before live ones.
final class ClusterLinesTests: XCTestCase {
  private func lines(_ topic: String, _ values: [String]) -> [UInt8] {
    values.flatMap { Array(#"{"stream":"\#(topic)","value":\#($0)}"#.utf8) + [0x0A] }
  }

  func testValidLinesAreCounted() {
    XCTAssertEqual(
      ClusterLines.validate(lines("a.b", ["1", #"{"x":[true]}"#])[...], topic: "a.b"), 2)
  }

  func testLinesOfAnotherTopicOrInvalidJSONAreRefused() {
    XCTAssertNil(ClusterLines.validate(lines("a.c", ["1"])[...], topic: "a.b"))
    XCTAssertNil(ClusterLines.validate(lines("a.b", ["{"])[...], topic: "a.b"))
    XCTAssertNil(ClusterLines.validate(lines("a.b", ["1 2"])[...], topic: "a.b"))
    XCTAssertNil(ClusterLines.validate(Array(lines("a.b", ["1"]).dropLast())[...], topic: "a.b"))
    XCTAssertNil(ClusterLines.validate([][...], topic: "a.b"))
    XCTAssertNil(
      ClusterLines.validate(
        Array(#"{"stream":"a.b","sub":"a.*","value":1}"#.utf8 + [0x0A])[...], topic: "a.b"))
  }

  func testPiecesCutAtLineEndsWithinTheLimit() {
    let all = lines("t", ["1", "22", "333", "4444"])
    let limit = 2 * (all.count / 4) + 2
    let pieces = ClusterLines.pieces(all, limit: limit)
    XCTAssertGreaterThan(pieces.count, 1)
    XCTAssertTrue(pieces.allSatisfy { $0.count <= limit && $0.last == 0x0A })
    XCTAssertEqual(pieces.flatMap { $0 }, all)
    XCTAssertEqual(ClusterLines.pieces(all, limit: all.count).count, 1)
  }

  func testTopicOfLines() {
    XCTAssertEqual(ClusterLines.topic(of: lines("room.1", ["1"])), "room.1")
    XCTAssertNil(ClusterLines.topic(of: Array("{}".utf8)))
  }

  func testSubjectsMapNamesOneToOne() {
    let subjects = ClusterSubjects(prefix: "obs.eu-1")
    XCTAssertEqual(subjects.live("room.*"), "obs.eu-1.room.*")
    XCTAssertEqual(subjects.retained("room.>"), "obs.eu-1-retained.room.>")
    XCTAssertEqual(subjects.stream, "OBS_EU_1_RETAINED")
    XCTAssertEqual(subjects.topic(ofLive: "obs.eu-1.room.1"), "room.1")
    XCTAssertEqual(subjects.topic(ofRetained: "obs.eu-1-retained.room.1"), "room.1")
    XCTAssertNil(subjects.topic(ofLive: "obs.eu-1x.room"))
    XCTAssertNil(subjects.topic(ofLive: "obs.eu-1"))
  }

  func testConfigurationRefusesBadInput() {
    XCTAssertThrowsError(try ClusterConfiguration(urls: []))
    XCTAssertThrowsError(try ClusterConfiguration(urls: ["http://x"]))
    XCTAssertThrowsError(try ClusterConfiguration(urls: ["nats://x"], prefix: "a.*"))
    XCTAssertThrowsError(try ClusterConfiguration(urls: ["nats://x"], replicas: 0))
    let good = try? ClusterConfiguration(urls: ["nats://u:p@h:5"], prefix: "p", replicas: 1)
    XCTAssertEqual(good?.servers.first?.port, 5)
  }
}

/// The gate between a new clustered subscription and its observer.
final class RetainedGateTests: XCTestCase {
  /// What the observer received and the inbound copy the link would report, shared with the
  /// gate's closures.
  private final class Probe: Sendable {
    let received = Locked<[String]>([])
    let inbound = Locked<(topic: String, sequence: UInt64)?>(nil)
  }

  private let probe = Probe()
  private var received: [String] { probe.received.withLock { $0 } }

  private func gate(_ name: String, pattern: Bool = false) -> RetainedGate {
    let probe = probe
    return RetainedGate(
      name: name, isPattern: pattern,
      observer: StreamObserver { lines in
        probe.received.withLock { $0.append(String(decoding: lines, as: UTF8.self)) }
      },
      inbound: { probe.inbound.withLock { $0 } })
  }

  private func line(_ topic: String, _ value: String, sub: String? = nil) -> [UInt8] {
    let prefix =
      sub.map { DeliveryEncoder.prefix(stream: topic, sub: $0) }
      ?? DeliveryEncoder.prefix(stream: topic)
    return prefix + Array(value.utf8) + Array("}\n".utf8)
  }

  func testRetainedComesFirstThenWaitingValues() {
    let gate = gate("t")
    gate.relay.next(line("t", "2"))
    XCTAssertEqual(received, [], "nothing passes before the fetch answers")
    gate.open(with: [ClusterRetainedValue(topic: "u", sequence: 1, value: Array("1".utf8))])
    gate.relay.next(line("t", "3"))
    XCTAssertEqual(
      received,
      [
        String(decoding: line("u", "1"), as: UTF8.self),
        String(decoding: line("t", "2"), as: UTF8.self),
        String(decoding: line("t", "3"), as: UTF8.self),
      ])
  }

  func testRetainedIsSkippedWhenANewerLiveValueCame() {
    let gate = gate("room.*", pattern: true)
    gate.relay.next(line("room.1", "9", sub: "room.*"))
    gate.open(with: [
      ClusterRetainedValue(topic: "room.1", sequence: 4, value: Array("1".utf8)),
      ClusterRetainedValue(topic: "room.2", sequence: 5, value: Array("2".utf8)),
    ])
    XCTAssertEqual(
      received,
      [
        String(decoding: line("room.2", "2", sub: "room.*"), as: UTF8.self),
        String(decoding: line("room.1", "9", sub: "room.*"), as: UTF8.self),
      ])
  }

  func testLiveCopyOfADeliveredRetainedValueIsDropped() {
    let gate = gate("t")
    gate.open(with: [ClusterRetainedValue(topic: "t", sequence: 7, value: Array("1".utf8))])
    probe.inbound.withLock { $0 = ("t", 7) }
    gate.relay.next(line("t", "1"))
    probe.inbound.withLock { $0 = ("t", 8) }
    gate.relay.next(line("t", "2"))
    probe.inbound.withLock { $0 = nil }
    XCTAssertEqual(
      received,
      [
        String(decoding: line("t", "1"), as: UTF8.self),
        String(decoding: line("t", "2"), as: UTF8.self),
      ])
  }

  func testWaitingValuesAreBounded() {
    let gate = gate("t")
    let big = line("t", "\"" + String(repeating: "x", count: 300_000) + "\"")
    for _ in 0..<5 { gate.relay.next(big) }
    XCTAssertEqual(gate.droppedWhileWaiting, 5 - RetainedGate.bufferLimit / big.count)
    gate.open(with: [])
    XCTAssertEqual(received.count, RetainedGate.bufferLimit / big.count)
  }
}
