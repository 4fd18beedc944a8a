/// The syntactic category of a JSON value, known from its first byte.
///
/// Callers use it to decide how to interpret a raw value range without re-parsing it, for example
/// to reject a request whose `"stream"` member is not a string before decoding anything.
package enum JSONValueKind: Sendable, Equatable {
  case object
  case array
  case string
  case number
  case bool
  case null
}
