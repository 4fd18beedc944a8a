import Testing

@testable import ObservableServer

/// A client that has not authenticated is told how, in the form it wrote in.
@Suite("Authentication hint", .timeLimit(.minutes(1)))
struct ShorthandAuthTests {
  /// The code and message of an error reply.
  static func error(_ reply: [String: Any]) -> (code: String?, message: String) {
    let error = reply["error"] as? [String: Any]
    return (error?["code"] as? String, error?["message"] as? String ?? "")
  }

  @Test func aShorthandLineIsToldToSendAuthToken() throws {
    let server = try TestServer { $0.token = "s3cret" }
    defer { server.stop() }
    let client = try server.connect()
    defer { client.close() }
    let (code, message) = Self.error(try client.request("subscribe clock"))
    #expect(code == "unauthorized")
    #expect(message == "send auth TOKEN first")
    #expect(try client.request("auth s3cret")["ok"] as? Bool == true)
  }

  @Test func aJSONRequestIsToldToSendTheJSONAuth() throws {
    let server = try TestServer { $0.token = "s3cret" }
    defer { server.stop() }
    let client = try server.connect()
    defer { client.close() }
    let (code, message) = Self.error(try client.request(#"{"op":"subscribe","stream":"clock"}"#))
    #expect(code == "unauthorized")
    #expect(message.contains(#"{"op":"auth","token":"#))
  }
}
