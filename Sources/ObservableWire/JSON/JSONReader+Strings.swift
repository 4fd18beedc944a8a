extension JSONReader {
  /// Validates the string token at `index` (which must be at its opening quote) and steps past it.
  ///
  /// Returns whether the token contains escapes, so that a caller decoding it can skip the search
  /// for backslashes.
  mutating func scanString() throws(JSONSyntaxError) -> Bool {
    let token = try JSONStringToken(base: base, end: end).scan(openingAt: index)
    index = token.next
    return token.hasEscapes
  }
}
