import Foundation
import Testing

@testable import ObservableServer

/// Compares accept/reject decisions with Foundation's `JSONSerialization` on generated inputs.
///
/// Foundation is a second, independent strict parser on Linux. Inputs are left out of the
/// comparison only where RFC 8259 leaves the behaviour to the implementation or Foundation does
/// something other than parse UTF-8 JSON; see ``exclusion(_:)``.
@Suite struct JSONDifferentialTests {
  @Test func acceptanceMatchesFoundation() {
    var generator = JSONDocumentGenerator(seed: 0x5EED)
    var inputs: [[UInt8]] = []
    for round in 0..<6000 {
      switch round % 6 {
      case 0: inputs.append(generator.document())
      case 5: inputs.append(generator.garbage())
      default: inputs.append(generator.mutated(generator.document()))
      }
    }

    var accepted = 0
    var rejected = 0
    var excluded = 0
    var mismatches: [String] = []
    for input in inputs {
      if exclusion(input) != nil {
        excluded += 1
        continue
      }
      let ours = syntaxError(input) == nil
      let theirs =
        (try? JSONSerialization.jsonObject(with: Data(input), options: .fragmentsAllowed)) != nil
      if ours { accepted += 1 } else { rejected += 1 }
      if ours != theirs && mismatches.count < 10 {
        let hex = input.map { String($0, radix: 16) }.joined(separator: " ")
        mismatches.append("ours=\(ours) foundation=\(theirs): \(hex)")
      }
    }
    #expect(mismatches == [])
    // Guards against a generator change that silently makes the comparison meaningless.
    #expect(accepted > 1000)
    #expect(rejected > 3000)
    #expect(excluded < 600)
  }

  /// For valid generated objects, members and decoded string values match Foundation's view.
  @Test func membersMatchFoundation() throws {
    var generator = JSONDocumentGenerator(seed: 7)
    var compared = 0
    for _ in 0..<1500 {
      let input = generator.document()
      guard exclusion(input) == nil, let members = try scanObject(input) else { continue }
      let parsed = try JSONSerialization.jsonObject(with: Data(input)) as? [String: Any]
      let dictionary = try #require(parsed)
      let keys = members.map(\.key)
      // Foundation keeps one value per key, so only duplicate-free objects compare one to one.
      guard Set(keys).count == keys.count else { continue }
      compared += 1
      #expect(Set(keys) == Set(dictionary.keys))
      for member in members where member.kind == .string {
        #expect(decodeString(input, member.value) == dictionary[member.key] as? String)
      }
    }
    #expect(compared > 300)
  }

  @Test(
    arguments: [
      ([0xEF, 0xBB, 0xBF, 0x31], "byte order mark"),
      ([0x31, 0x00], "NUL in the first four bytes"),
      (Array(#"["\ud800"]"#.utf8), "unpaired surrogate escape"),
      (Array(#""\udc00\ud800""#.utf8), "unpaired surrogate escape"),
      (Array(#""\\ud83d\ude00""#.utf8), "unpaired surrogate escape"),
      (Array("[1e400]".utf8), "exponent of three or more digits"),
      (Array("1E-0005".utf8), "exponent of three or more digits"),
    ] as [([UInt8], String)])
  func excludesUnspecifiedBehaviour(input: [UInt8], reason: String) {
    #expect(exclusion(input) == reason)
  }

  @Test(arguments: [
    Array(#""\ud83d\ude00""#.utf8), Array("[1e99, 0]".utf8), Array("[1, 2]\u{0}".utf8),
    Array(#""\\ud800""#.utf8), Array(#""\\\ud83d\ude00""#.utf8),
  ])
  func comparesOrdinaryInput(input: [UInt8]) {
    #expect(exclusion(input) == nil)
  }

  /// Why `input` is left out of the comparison, or `nil` if it is compared.
  func exclusion(_ input: [UInt8]) -> String? {
    // Foundation sniffs a BOM or NUL bytes among the first four to decode UTF-16 or UTF-32, so
    // such input is not even read as UTF-8 JSON there.
    if input.starts(with: [0xEF, 0xBB, 0xBF]) || input.starts(with: [0xFE, 0xFF])
      || input.starts(with: [0xFF, 0xFE])
    {
      return "byte order mark"
    }
    if input.prefix(4).contains(0) { return "NUL in the first four bytes" }
    // The JSON grammar allows an unpaired surrogate escape (RFC 8259 §8.2 leaves its meaning
    // open); both refuse it (the scanner as I-JSON does), so there is no value to compare.
    if hasUnpairedSurrogateEscape(input) { return "unpaired surrogate escape" }
    // RFC 8259 §6 lets implementations limit number range; Foundation rejects numbers a Double
    // cannot represent, and the scanner deliberately checks grammar only.
    if hasLongExponent(input) { return "exponent of three or more digits" }
    return nil
  }

  /// Walks escapes the way a string scanner does, so an escaped backslash followed by `ud800`
  /// is not mistaken for an escape and a real `\uDE00` after it is not mistaken for its partner.
  private func hasUnpairedSurrogateEscape(_ input: [UInt8]) -> Bool {
    func unit(at index: Int) -> Int? {
      guard index + 6 <= input.count, input[index] == UInt8(ascii: "\\"),
        input[index + 1] == UInt8(ascii: "u")
      else { return nil }
      return Int(String(decoding: input[index + 2..<index + 6], as: UTF8.self), radix: 16)
    }
    var index = 0
    while index < input.count {
      guard input[index] == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      guard let value = unit(at: index) else {
        index += 2
        continue
      }
      if (0xD800...0xDBFF).contains(value) {
        guard let low = unit(at: index + 6), (0xDC00...0xDFFF).contains(low) else { return true }
        index += 12
      } else if (0xDC00...0xDFFF).contains(value) {
        return true
      } else {
        index += 6
      }
    }
    return false
  }

  private func hasLongExponent(_ input: [UInt8]) -> Bool {
    for (index, byte) in input.enumerated() where byte | 0x20 == UInt8(ascii: "e") {
      var digitsStart = index + 1
      if digitsStart < input.count
        && (input[digitsStart] == UInt8(ascii: "+") || input[digitsStart] == UInt8(ascii: "-"))
      {
        digitsStart += 1
      }
      let digits = input[min(digitsStart, input.count)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
      if digits.count >= 3 { return true }
    }
    return false
  }
}
