import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerRangeTests {
  @Test(arguments: ["", " ", "\t", "\r\n", " \n\t\r  "], ["", " ", "\n", " \t\r\n "])
  func trimsSurroundingWhitespace(leading: String, trailing: String) throws {
    for value in [#"{"a": [1, 2]}"#, "[ ]", #""x y""#, "-1.5e3", "true", "null"] {
      let scanned = try scanValue(leading + value + trailing)
      let start = leading.utf8.count
      #expect(scanned.range == start..<start + value.utf8.count, "\(value)")
    }
  }

  @Test func memberRangesCoverExactlyTheRawValue() throws {
    let text = #" { "a" : [1, 2] , "b":"x\"y" ,"c" : {"d":{}}, "e":-0.5e1 ,"f":true,"g" :null } "#
    let bytes = Array(text.utf8)
    let members = try #require(try scanObject(bytes))
    #expect(members.map(\.key) == ["a", "b", "c", "e", "f", "g"])
    #expect(
      members.map { slice(bytes, $0.value) } == [
        "[1, 2]", #""x\"y""#, #"{"d":{}}"#, "-0.5e1", "true", "null",
      ])
    #expect(members.map(\.kind) == [.array, .string, .object, .number, .bool, .null])
  }

  @Test func rangesAreRelativeToTheBufferPassedIn() throws {
    let line = Array(#"xx{"k":"v"}yy"#.utf8)
    let members = try line.withUnsafeBytes { raw in
      try JSONScanner.scanObject(UnsafeRawBufferPointer(rebasing: raw[2..<11]))
    }
    let member = try #require(members?.first)
    #expect(member.value == 5..<8)
    #expect(slice(Array(line[2..<11]), member.value) == #""v""#)
  }
}
