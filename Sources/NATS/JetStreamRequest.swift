/// One JetStream API call: the subject to send a request on and its body.
public struct JetStreamRequest: Sendable, Equatable {
  /// The `$JS.API...` subject, or the stream subject for a publish.
  public var subject: String
  /// The JSON body, empty for calls that take none.
  public var body: [UInt8]
}
