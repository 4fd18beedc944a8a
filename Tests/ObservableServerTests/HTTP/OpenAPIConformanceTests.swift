import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// The OpenAPI document against the running server: schemathesis (PyPI) generates requests
/// from `/openapi.json`, valid and invalid, and checks every answer against the document
/// (status codes, content types, body schemas, `401` without credentials, `405` with `Allow`
/// for other methods). `/sse` and `/ws` are left out: their answers last as long as the
/// connection.
@Suite("HTTP API against its OpenAPI document", .timeLimit(.minutes(5)))
struct OpenAPIConformanceTests {
  @Test func schemathesisFindsNoAnswerTheDocumentDoesNotDescribe() async throws {
    guard let python = await PythonProcess.interpreter(importing: "schemathesis") else {
      throw RequiredTool.missing("schemathesis (pip install schemathesis)")
    }
    let server = try TestServer.withHTTP { $0.token = "s3cret" }
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("schemathesis-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Everything schemathesis prints goes to standard error, which a failure reports.
    let program = """
      import os, sys
      os.chdir(sys.argv.pop(1))
      os.dup2(2, 1)
      from schemathesis.cli import schemathesis
      sys.exit(schemathesis())
      """
    let arguments = [
      "-c", program, directory.path, "run", "http://127.0.0.1:\(server.httpPort)/openapi.json",
      "--checks", "all", "--header", "Authorization: Bearer s3cret", "--max-examples", "15",
      "--exclude-path", "/sse", "--exclude-path", "/ws", "--workers", "1", "--seed", "1",
      "--generation-database", "none", "--request-timeout", "10", "--no-color",
    ]
    do {
      _ = try await PythonProcess.run(
        arguments: arguments, input: [], interpreter: python,
        environment: [
          "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": directory.path,
          "SCHEMATHESIS_HOOKS": "",
        ], timeout: .seconds(240))
    } catch let failure as PythonProcess.Failure {
      Issue.record("schemathesis found a problem: \(failure.description.suffix(6000))")
    }
  }
}
