/// A retained value read back from JetStream for a new subscriber.
package struct ClusterRetainedValue: Sendable, Equatable {
  /// The topic it belongs to.
  var topic: String
  /// Its sequence in the stream, which its live copy carries as `Obs-Seq`.
  var sequence: UInt64
  /// The raw JSON value, already validated.
  var value: [UInt8]
}
