#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Removing the messages of one subject from a stream, as clearing a retained value does.
extension JetStreamAPI {
  /// Purges the messages of `subject` from `stream`.
  public static func purge(stream: String, subject: String) -> JetStreamRequest {
    let body = (try? JSONEncoder().encode(["filter": subject])) ?? Data()
    return JetStreamRequest(subject: "$JS.API.STREAM.PURGE.\(stream)", body: Array(body))
  }

  /// How many messages a purge removed.
  public static func decodePurge(_ reply: Result<NATSMessage, NATSRequestError>)
    throws(JetStreamError) -> Int
  {
    let message: NATSMessage
    switch reply {
    case .success(let value): message = value
    case .failure(let error): throw .request(error)
    }
    if let status = message.status, message.payload.isEmpty {
      throw .unexpectedStatus(status, message.headers?.statusDescription ?? "")
    }
    let data = Data(message.payload)
    if let failure = try? JSONDecoder().decode(PurgeError.self, from: data) {
      throw .api(failure.error)
    }
    guard let reply = try? JSONDecoder().decode(PurgeReply.self, from: data) else {
      throw .malformedReply(String(decoding: message.payload.prefix(200), as: UTF8.self))
    }
    return reply.purged
  }
}

private struct PurgeReply: Decodable {
  var purged: Int
}

private struct PurgeError: Decodable {
  var error: JetStreamAPIError
}
