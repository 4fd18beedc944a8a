import Foundation
import ObservableAuthorization
import ObservableCredentials
import TestSupport
import Testing

@testable import ObservableServer

/// `POST /publish`, `POST /clear`, `GET /streams`, `GET /streams/NAME` over real sockets:
/// several requests on one kept-alive connection, a publish reaching a TCP subscriber, and
/// every refusal with its documented status and JSON body.
@Suite("HTTP API", .timeLimit(.minutes(1)))
struct HTTPAPITests {
  @Test func aPublishReachesATCPSubscriberAndEveryCallSharesOneConnection() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let subscriber = try server.connect()
    defer { subscriber.close() }
    _ = try subscriber.request(#"{"op":"subscribe","stream":"room.a"}"#)
    let client = try HTTPAPIClient(server)
    defer { client.close() }
    let published = try client.exchange(
      "POST", "/publish", body: #"{"stream":"room.a","value":{"n":1},"retain":true}"#)
    #expect(published.status == 200, "\(published.body)")
    #expect(published.json["ok"] as? Bool == true && published.json["op"] as? String == "publish")
    #expect(published.json["id"] == nil)
    #expect(published.headers["connection"] == nil)
    let delivery = try subscriber.read(until: { $0["stream"] as? String == "room.a" })
    #expect((delivery["value"] as? [String: Any])?["n"] as? Int == 1)
    let retained = try client.exchange("GET", "/streams/room.a")
    #expect(retained.status == 200)
    #expect(retained.body == #"{"stream":"room.a","value":{"n":1}}"# + "\n")
    let list = try client.exchange("GET", "/streams?pattern=room.*&limit=10")
    #expect(list.status == 200)
    let streams = list.json["streams"] as? [[String: Any]] ?? []
    #expect(streams.map { $0["name"] as? String } == ["room.a"], "\(list.body)")
    #expect(try client.exchange("POST", "/clear", body: #"{"stream":"room.a"}"#).status == 200)
    let gone = try client.exchange("GET", "/streams/room.a", headers: ["Connection": "close"])
    #expect(gone.status == 404 && gone.errorCode == "not_found", "\(gone.body)")
    #expect(gone.headers["connection"] == "close")
    #expect(client.closedByServer())
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let client = try HTTPAPIClient(server)
    defer { client.close() }
    try client.send(
      (0..<5).map {
        HTTPAPIClient.request(
          "POST", "/publish", body: #"{"stream":"p","value":\#($0),"retain":true}"#)
      }.joined() + HTTPAPIClient.request("GET", "/streams/p")
        + HTTPAPIClient.request("GET", "/nowhere"))
    for _ in 0..<5 { #expect(try client.read().status == 200) }
    #expect(try client.read().body == #"{"stream":"p","value":4}"# + "\n")
    let missing = try client.read()
    #expect(missing.status == 404 && missing.errorCode == "not_found")
    #expect(client.closedByServer())
  }

  @Test func refusalsHaveTheirDocumentedStatus() throws {
    let server = try TestServer.withHTTP { $0.token = "s3cret" }
    defer { server.stop() }
    let bearer = ["Authorization": "Bearer s3cret"]
    let publish = #"{"stream":"a","value":1}"#
    let cases: [(String, String, String?, [String: String], Int, String)] = [
      ("POST", "/publish", publish, [:], 401, "unauthorized"),
      ("POST", "/publish", publish, ["Authorization": "Bearer wrong"], 401, "unauthorized"),
      (
        "POST", "/publish", publish, bearer.merging(["Content-Type": "text/plain"]) { $1 }, 415,
        "unsupported_media_type"
      ),
      ("POST", "/publish", "{\"stream\":", bearer, 400, "bad_request"),
      ("POST", "/publish", #"{"stream":"a","value":1,"op":"clear"}"#, bearer, 400, "bad_request"),
      ("POST", "/publish", #"{"stream":"a b","value":1}"#, bearer, 400, "bad_name"),
      ("POST", "/publish", #"{"stream":"clock","value":1}"#, bearer, 409, "read_only"),
      ("GET", "/publish", nil, bearer, 405, "method_not_allowed"),
      ("GET", "/nowhere", nil, bearer, 404, "not_found"),
      ("GET", "/streams?limit=0", nil, bearer, 400, "bad_request"),
    ]
    for (method, target, body, headers, status, code) in cases {
      let client = try HTTPAPIClient(server)
      defer { client.close() }
      let answer = try client.exchange(method, target, body: body, headers: headers)
      #expect(answer.status == status, "\(method) \(target): \(answer.body)")
      #expect(answer.errorCode == code, "\(method) \(target): \(answer.body)")
      #expect(answer.headers["content-type"] == "application/json")
      if status == 401 { #expect(answer.headers["www-authenticate"]?.hasPrefix("Bearer") == true) }
      if status == 405 { #expect(answer.headers["allow"] == "POST") }
    }
  }

  @Test func aBodyPastTheLimitOrWithoutALengthIsRefusedUnread() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let large = try HTTPAPIClient(server)
    defer { large.close() }
    try large.send(
      "POST /publish HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(2 << 20)\r\n\r\n{")
    let tooLarge = try large.read()
    #expect(tooLarge.status == 413 && tooLarge.errorCode == "content_too_large")
    #expect(large.closedByServer())
    let chunked = try HTTPAPIClient(server)
    defer { chunked.close() }
    try chunked.send(
      "POST /publish HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n")
    #expect(try chunked.read().status == 501)
    let unsized = try HTTPAPIClient(server)
    defer { unsized.close() }
    try unsized.send("POST /clear HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n")
    #expect(try unsized.read().status == 411)
  }

  @Test func aFileUserHasTheLineProtocolsPermissions() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("http-api-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ann = NewToken()
    let path = directory.appendingPathComponent("users.json").path
    try #"""
    {"users": {"ann": {"token": "\#(ann.digest.text)", "subscribe": ["room.*"],
                       "publish": {"allow": ["room.*"], "deny": ["room.locked"]}}}}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try AuthorizationFile.load(path: path)
    let server = try TestServer.withHTTP { $0.access = AccessPolicy(file: file, filePath: path) }
    defer { server.stop() }
    let basic = "Basic " + Data("ann:\(ann.token)".utf8).base64EncodedString()
    let client = try HTTPAPIClient(server)
    defer { client.close() }
    let allowed = try client.exchange(
      "POST", "/publish", body: #"{"stream":"room.open","value":1}"#,
      headers: ["Authorization": basic])
    #expect(allowed.status == 200, "\(allowed.body)")
    let denied = try client.exchange(
      "POST", "/publish?user=ann", body: #"{"stream":"room.locked","value":1}"#,
      headers: ["Authorization": "Bearer \(ann.token)"])
    #expect(denied.status == 403 && denied.errorCode == "forbidden", "\(denied.body)")
    let unlisted = try client.exchange("GET", "/streams", headers: ["Authorization": basic])
    #expect(unlisted.status == 403, "\(unlisted.body)")
    let wrong = try HTTPAPIClient(server)
    defer { wrong.close() }
    let refused = try wrong.exchange(
      "GET", "/streams/room.open", headers: ["Authorization": "Basic YW5uOndyb25n"])
    #expect(refused.status == 401)
  }

  @Test func theOpenAPIDocumentNamesEveryPath() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let client = try HTTPAPIClient(server)
    defer { client.close() }
    let answer = try client.exchange("GET", "/openapi.json")
    #expect(answer.status == 200 && answer.headers["content-type"] == "application/json")
    let paths = answer.json["paths"] as? [String: Any] ?? [:]
    #expect(
      Set(paths.keys)
        == [
          "/publish", "/clear", "/streams", "/streams/{name}", "/", "/metrics", "/healthz",
          "/openapi.json", "/sse", "/ws",
        ])
  }
}
