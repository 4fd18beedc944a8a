/// Comparison whose time depends only on the lengths compared, not on where bytes differ.
package enum ConstantTime {
  /// Whether `given` equals `expected`, looking at every byte of `expected` either way.
  package static func equal(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
    var difference: UInt8 = given.count == expected.count ? 0 : 1
    for index in 0..<expected.count {
      let other = index < given.count ? given[index] : ~expected[index]
      difference |= other ^ expected[index]
    }
    return difference == 0
  }
}
