import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Protocol 1.1: deliveries through a pattern subscription carry it,
/// `{"stream":NAME,"sub":PATTERN,"value":V}\n`.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryEncoderSubTests {
  @Test("a line through a pattern has stream, sub and value, in that order")
  func subLine() throws {
    var line = DeliveryEncoder.prefix(stream: "room.1", sub: "room.*")
    line += Array("21.5}\n".utf8)
    #expect(
      String(decoding: line, as: UTF8.self) == #"{"stream":"room.1","sub":"room.*","value":21.5}"#
        + "\n")
    let object = try WireJSON.object(line)
    #expect(object["stream"] as? String == "room.1")
    #expect(object["sub"] as? String == "room.*")
    #expect(object["value"] as? Double == 21.5)
    #expect(WireJSON.keyPaths(line) == ["stream", "sub", "value"])
  }

  @Test(
    "relabelling plain lines gives the lines encoded with the pattern, one or many",
    arguments: [1, 2, 7])
  func relabel(count: Int) {
    let values = (0..<count).map { index in
      index.isMultiple(of: 2) ? "\(index)" : #"{"n":\#(index),"s":"a\"}"}"#
    }
    let plainPrefix = DeliveryEncoder.prefix(stream: "room.12")
    let subPrefix = DeliveryEncoder.prefix(stream: "room.12", sub: "room.>")
    var plain: [UInt8] = []
    var expected: [UInt8] = []
    for value in values {
      Array(value.utf8).withUnsafeBytes {
        DeliveryEncoder.append(rawValue: $0, after: plainPrefix, to: &plain)
        DeliveryEncoder.append(rawValue: $0, after: subPrefix, to: &expected)
      }
    }
    let relabelled = DeliveryEncoder.relabel(
      plain, droppingPrefix: DeliveryEncoder.prefixLength(stream: "room.12"), adding: subPrefix)
    #expect(
      String(decoding: relabelled, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    #expect(relabelled.count(where: { $0 == 0x0A }) == count)
  }

  @Test("prefixLength is the length of the prefix", arguments: ["a", "room.1", "x-y_z.*.>"])
  func prefixLength(name: String) {
    #expect(
      DeliveryEncoder.prefixLength(stream: name) == DeliveryEncoder.prefix(stream: name).count)
  }
}
