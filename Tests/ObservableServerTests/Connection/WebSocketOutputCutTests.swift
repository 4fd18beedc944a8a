import Testing
import WebSocket

@testable import ObservableFraming
@testable import ObservableServer

/// Where a WebSocket connection's queued output may be cut to make room for a close frame:
/// only after the frame being written, never inside one.
@Suite("WebSocket output cut")
struct WebSocketOutputCutTests {
  @Test func theCutFollowsTheFrameBeingWritten() throws {
    let encoder = try WebSocketFrameEncoder()
    var output = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
    var ends = [output.count]
    for length in [0, 125, 126, 65535, 65536, 3] {
      let message = [UInt8](repeating: 0x61, count: length)
      message.withUnsafeBytes { encoder.appendText($0, to: &output) }
      ends.append(output.count)
    }
    output.withUnsafeBytes { bytes in
      #expect(WebSocketFraming.endOfFrame(in: bytes, containing: 0) == ends[0])
      #expect(WebSocketFraming.endOfFrame(in: bytes, containing: ends[0] - 1) == ends[0])
      for index in 1..<ends.count {
        #expect(WebSocketFraming.endOfFrame(in: bytes, containing: ends[index - 1]) == ends[index])
        #expect(WebSocketFraming.endOfFrame(in: bytes, containing: ends[index] - 1) == ends[index])
      }
      #expect(WebSocketFraming.endOfFrame(in: bytes, containing: bytes.count) == bytes.count)
      // A frame that is not all there cannot be finished: no cut.
      let cutShort = UnsafeRawBufferPointer(rebasing: bytes[..<(ends.last! - 1)])
      #expect(WebSocketFraming.endOfFrame(in: cutShort, containing: ends[ends.count - 2]) == nil)
    }
  }

  @Test func framesWithoutAHeadStartAtZero() throws {
    var output: [UInt8] = []
    WebSocketFrameEncoder.appendPong(Array("abc".utf8), to: &output)
    WebSocketFrameEncoder.appendClose(.policyViolation, reason: "slow consumer", to: &output)
    output.withUnsafeBytes { bytes in
      #expect(WebSocketFraming.endOfFrame(in: bytes, containing: 0) == 5)
      #expect(WebSocketFraming.endOfFrame(in: bytes, containing: 5) == bytes.count)
    }
  }
}
