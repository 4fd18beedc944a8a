#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading one subject's last message from the stream's leader.
extension JetStreamAPI {
  /// The last message stored for `subject`, read from the stream's leader. A direct get
  /// (``directGetLast(stream:subject:)``) is answered by any replica, and one that has not
  /// stored the newest message yet answers the one before.
  public static func lastMessageFromLeader(stream: String, subject: String) -> JetStreamRequest {
    JetStreamRequest(
      subject: "$JS.API.STREAM.MSG.GET.\(stream)", body: json(MessageGet(lastBySubject: subject)))
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

private struct MessageGet: Encodable {
  var lastBySubject: String

  private enum CodingKeys: String, CodingKey {
    case lastBySubject = "last_by_subj"
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
