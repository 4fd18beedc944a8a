/// Compares secrets in time that depends only on their lengths, not on where they differ.
package enum TokenComparison {
  /// Whether `given` equals `expected`, looking at every byte either way.
  package static func matches(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
    var difference: UInt8 = given.count == expected.count ? 0 : 1
    for index in 0..<expected.count {
      let other = index < given.count ? given[index] : ~expected[index]
      difference |= other ^ expected[index]
    }
    return difference == 0
  }
}
