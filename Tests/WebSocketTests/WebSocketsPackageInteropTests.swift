import Foundation
import TestSupport
import XCTest

@testable import WebSocket

/// Python's `websockets` package, an independent implementation, talks to an echo server
/// built from this codec over a loopback socket.
final class WebSocketsPackageInteropTests: XCTestCase {
  private struct ClientReport: Decodable {
    let extensions: String?
    let echoes: Bool
    let pong: Bool
    let close: Int?
  }

  private func converse(
    compression: String, ending: String, policy: PerMessageDeflatePolicy = .init()
  ) async throws -> (ClientReport, LoopbackEchoServer.Report) {
    guard let python = await PythonProcess.interpreter(importing: "websockets.sync.client") else {
      throw RequiredTool.missing("python3 with the websockets package (pip install websockets)")
    }
    let (listener, port) = try LoopbackEchoServer.listen()
    let reports = LoopbackEchoServer.start(
      listener: listener, maximumMessageBytes: 100_000, policy: policy)
    var output: Result<[UInt8], any Error>
    do {
      output = .success(
        try await PythonProcess.run(
          arguments: [PythonProcess.script("websocket_client.py"), "\(port)", compression, ending],
          input: [], interpreter: python, timeout: .seconds(60)))
    } catch {
      output = .failure(error)
    }
    // The server's thread ends on its own timeouts even when the client failed; wait for
    // it either way so it never outlives the test.
    var server: LoopbackEchoServer.Report?
    for await report in reports { server = report }
    let client = try JSONDecoder().decode(ClientReport.self, from: Data(try output.get()))
    return (client, try XCTUnwrap(server))
  }

  func testPlainEchoAndCleanClose() async throws {
    let (client, server) = try await converse(compression: "plain", ending: "close")
    XCTAssertNil(server.problem)
    XCTAssertNil(client.extensions)
    XCTAssertNil(server.deflate)
    XCTAssertTrue(client.echoes)
    XCTAssertTrue(client.pong)
    XCTAssertEqual(server.texts, 5)
    XCTAssertEqual(server.pings, 1)
    XCTAssertEqual(server.peerClose, .normalClosure)
    XCTAssertEqual(client.close, 1000)
  }

  func testDeflateWithContextTakeoverAndAnOversizedMessage() async throws {
    let (client, server) = try await converse(compression: "deflate", ending: "too-big")
    XCTAssertNil(server.problem)
    XCTAssertEqual(client.extensions, "permessage-deflate")
    XCTAssertEqual(server.deflate?.clientNoContextTakeover, false)
    XCTAssertTrue(client.echoes)
    XCTAssertTrue(client.pong)
    XCTAssertEqual(server.failure?.closeCode, .messageTooBig)
    XCTAssertEqual(client.close, 1009)
  }

  func testDeflateWithoutContextTakeoverAndABinaryMessage() async throws {
    let (client, server) = try await converse(compression: "no-takeover", ending: "binary")
    XCTAssertNil(server.problem)
    XCTAssertEqual(
      client.extensions,
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
    XCTAssertTrue(client.echoes)
    XCTAssertEqual(server.failure?.closeCode, .unsupportedData)
    XCTAssertEqual(client.close, 1003)
  }

  func testLeanPolicyWindowsWithTheDefaultOffer() async throws {
    let (client, server) = try await converse(
      compression: "deflate", ending: "close", policy: .lean)
    XCTAssertNil(server.problem)
    XCTAssertEqual(client.extensions, "permessage-deflate; client_max_window_bits=12")
    XCTAssertEqual(server.deflate?.deflateWindowBits, 12)
    XCTAssertTrue(client.echoes)
    XCTAssertEqual(client.close, 1000)
  }
}
