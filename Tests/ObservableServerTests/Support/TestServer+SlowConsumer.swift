import TestSupport

@testable import ObservableServer

extension TestServer {
  /// Publishes 1,000-byte values to `stream` in pipelined bursts of 50, up to 20 MB (far past
  /// any queue cap and what the kernel's socket buffers absorb), until the server has closed a
  /// slow consumer.
  func publishUntilSlowConsumer(_ publisher: LineClient, stream: String = "firehose") throws {
    let payload = String(repeating: "v", count: 1000)
    for _ in 0..<400 {
      for _ in 0..<50 { try publisher.send("publish \(stream) \"\(payload)\"") }
      for _ in 0..<50 { _ = try publisher.readReply() }
      if server.counters.snapshot.slowConsumersTotal > 0 { return }
    }
  }
}
