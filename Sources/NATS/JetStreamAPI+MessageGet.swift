#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading one subject's message from the stream's leader, which has applied every write it
/// acknowledged. A direct get is answered by any replica, and one that is behind answers
/// from before the newest writes: a message the leader has already dropped, or the one
/// before the newest.
extension JetStreamAPI {
  /// The last message stored for `subject`, read from the stream's leader. A direct get
  /// (``directGetLast(stream:subject:)``) is answered by any replica, and one that has not
  /// stored the newest message yet answers the one before.
  public static func lastMessageFromLeader(stream: String, subject: String) -> JetStreamRequest {
    JetStreamRequest(
      subject: "$JS.API.STREAM.MSG.GET.\(stream)", body: json(MessageGet(lastBySubject: subject)))
  }

  /// The first message stored for `subject` at or after `sequence`, read from the stream's
  /// leader: how far back a subject reaches, which a replica that has not yet dropped its
  /// oldest message would overstate.
  public static func nextMessageFromLeader(stream: String, subject: String, from sequence: UInt64)
    -> JetStreamRequest
  {
    JetStreamRequest(
      subject: "$JS.API.STREAM.MSG.GET.\(stream)",
      body: json(MessageGet(sequence: sequence, nextBySubject: subject)))
  }

  /// The message the leader read, or `nil` when the subject has none.
  public static func decodeMessageGet(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> JetStreamStoredMessage?
  {
    let stored: MessageGetReply.Message
    do {
      stored = try decode(MessageGetReply.self, reply).message
    } catch {
      if case .api(let failure) = error, failure.errorCode == JetStreamAPIError.noMessageFound {
        return nil
      }
      throw error
    }
    guard let payload = Data(base64Encoded: stored.data ?? "") else {
      throw .malformedReply("message get with a body not in base64")
    }
    return JetStreamStoredMessage(
      subject: stored.subject, sequence: stored.sequence, payload: Array(payload)[...])
  }
}

/// One of the three ways to name the message (the others are absent from the JSON).
private struct MessageGet: Encodable {
  var sequence: UInt64?
  var lastBySubject: String?
  var nextBySubject: String?

  private enum CodingKeys: String, CodingKey {
    case sequence = "seq"
    case lastBySubject = "last_by_subj"
    case nextBySubject = "next_by_subj"
  }
}

private struct MessageGetReply: Decodable {
  struct Message: Decodable {
    var subject: String
    var sequence: UInt64
    /// The body in base64; absent when it is empty.
    var data: String?

    private enum CodingKeys: String, CodingKey {
      case subject, data
      case sequence = "seq"
    }
  }

  var message: Message
}
