import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// Over TLS, a batch of one shared delivery chunk is sealed from the chunk itself and a batch
/// of several is gathered into one buffer first (`OutgoingBytes.sealQueued`): either way every
/// value arrives once and in order, a send cut short resumes inside its records, and every
/// chunk reference is released once it is sealed (the server's chunk census, counted in debug
/// builds, returns to zero).
@Suite("TLS shared delivery chunks", .timeLimit(.minutes(2)))
struct TLSSharedChunkTests {
  /// A subscriber to `chunks`, greeting and reply read.
  static func subscriber(on server: TestServer, _ certificates: TestCertificates) throws
    -> TLSLineClient
  {
    let client = try server.connectTLS(certificates)
    _ = try client.readLine()
    try client.send("subscribe chunks")
    _ = try client.readLine(containing: #""ok":true"#)
    return client
  }

  /// Reads `count` values and checks they are 0, 1, 2… in order, each once.
  static func expectInOrder(_ count: Int, from reader: TLSLineClient, _ name: String) throws {
    for number in 0..<count {
      let line = try reader.readLine(timeout: .seconds(10))
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let value = object?["value"] as? String
      #expect(value?.hasPrefix("\(number) ") == true, "\(name) at \(number): \(line.prefix(60))")
      guard value?.hasPrefix("\(number) ") == true else { return }
    }
  }

  @Test func valuesInOneChunkOrManyArriveOnceInOrderAndEveryChunkIsReleased() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    // Its socket takes a few KB until it reads: the chunks pile up in its outbox and go out
    // gathered, several to a batch, in sends cut short.
    let stalled = try server.stalledTLSSubscriber(certificates, to: "chunks")
    // These read as it comes: most of their batches are one chunk, sealed where it lies.
    let readers = try (0..<3).map { _ in try Self.subscriber(on: server, certificates) }
    let publisher = try server.connectTLS(certificates)
    _ = try publisher.readLine()
    let count = 200
    for burst in stride(from: 0, to: count, by: 20) {
      let values = burst..<min(burst + 20, count)
      for number in values { try publisher.send(SharedChunkTests.value(number)) }
      for _ in values { _ = try publisher.readLine(containing: #""ok":true"#) }
      // Reading between bursts keeps each reader's batches to the chunks of one burst.
      for (index, reader) in readers.enumerated() {
        for number in values {
          let line = try reader.readLine(timeout: .seconds(10))
          #expect(line.contains(#""value":"\#(number) "#), "reader \(index) at \(number)")
          if !line.contains(#""value":"\#(number) "#) { return }
        }
      }
    }
    // 400 KB do not fit the stalled socket: the rest waits, still the shared chunks.
    #if DEBUG
      #expect(SharedChunkTests.census(server) > 0)
    #endif
    try Self.expectInOrder(count, from: stalled, "the stalled subscriber")
    #expect(
      eventually { SharedChunkTests.census(server) == 0 },
      "\(SharedChunkTests.census(server)) chunks held")
  }
}
