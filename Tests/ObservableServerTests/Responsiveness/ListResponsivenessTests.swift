import Foundation
import Testing

@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// `list` reads its page from an ordered index, so a page costs the page, not the registry:
/// 20 pipelined lists over 300,000 topics leave another client of the loop answered at once.
/// On main each page sorted every topic (105 ms a page in a release build), and the 20 froze
/// the loop for 17.4 s.
@Suite("list stays cheap with many topics", .serialized, .timeLimit(.minutes(3)))
struct ListResponsivenessTests {
  static let topicCount = 100_000

  /// A one-loop server (so the lister and the bystander share it) holding `topicCount` topics,
  /// each with a retained value. The topics go straight into the registry, as pipelined
  /// `retain` requests would make them, only minutes faster in a debug build.
  static func serverWithTopics() throws -> TestServer {
    let server = try TestServer {
      $0.eventLoopCount = 1
      // The lister reads its replies at its own pace; none of it is a slow consumer.
      $0.maxQueuedBytes = 64 << 20
    }
    let value = Array("1".utf8)
    try value.withUnsafeBytes { bytes in
      for index in 0..<topicCount {
        _ = try server.server.registry.publish(bytes, to: name(index), retain: true)
      }
    }
    return server
  }

  static func name(_ index: Int) -> String {
    "t.\(String(format: "%06d", index))"
  }

  private static func names(_ reply: [String: Any]) -> [String] {
    (reply["streams"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
  }

  @Test func pipelinedListsLeaveABystanderAnswered() throws {
    let server = try Self.serverWithTopics()
    let lister = try server.connect()
    let bystander = try server.connect()
    // Pages from all over the registry: unfiltered, by a prefix pattern, by a pattern that
    // starts with a wildcard (which looks at a bounded stretch per page), and by one name.
    let requests = (0..<20).map { index -> String in
      let after = Self.name(index * 5_000)
      switch index % 4 {
      case 0: return #"{"op":"list","after":"\#(after)"}"#
      case 1: return #"{"op":"list","stream":"t.*","after":"\#(after)"}"#
      case 2: return #"{"op":"list","stream":"*.\#(after.dropFirst(2))"}"#
      default: return #"{"op":"list","stream":"\#(after)"}"#
      }
    }
    let replies = Replies()
    let longest = BystanderProbe.longestPing(
      through: bystander,
      whileRunning: {
        do {
          try lister.sendRaw(Array(requests.map { $0 + "\n" }.joined().utf8))
          for _ in requests { replies.append(try lister.readReply(timeout: .seconds(100))) }
        } catch {
          replies.fail("\(error)")
        }
      })
    let received = replies.all
    #expect(received.count == 20, "\(replies.failure ?? "")")
    #expect(received.allSatisfy { $0["ok"] as? Bool == true })
    if received.count == 20 {
      #expect(Self.names(received[0]).count == StreamListEncoder.pageSize)
      #expect(Self.names(received[0]).first == Self.name(1))
      #expect(Self.names(received[1]).first == Self.name(5_001))
      #expect(Self.names(received[3]) == [Self.name(15_000)])
    }
    // Main answered this ping after 17.4 s (release); the fixed server in a few milliseconds.
    // The bound is far from both, for a loaded debug build.
    let waited = try #require(longest)
    #expect(waited < .seconds(2), "the bystander waited \(waited)")
  }

  @Test func pagesOfAWildcardFirstPatternReachEveryMatchInOrder() throws {
    let server = try Self.serverWithTopics()
    let client = try server.connect()
    // `*.000010` matches one topic; each page looks at a bounded stretch of the 300,000, so
    // most pages are empty, and `next` still leads past every topic.
    var found: [String] = []
    var after: String?
    var pages = 0
    repeat {
      let request =
        after.map { #"{"op":"list","stream":"*.000010","after":"\#($0)"}"# }
        ?? #"{"op":"list","stream":"*.000010"}"#
      let reply = try client.request(request)
      found += Self.names(reply)
      after = reply["next"] as? String
      pages += 1
    } while after != nil && pages < 1_000
    #expect(found == [Self.name(10)])
    // A page per budget's worth of topics, and a last one that finds the end.
    #expect(pages == Self.topicCount / StreamRegistry.listScanBudget + 1)
  }
}

/// The replies a lister thread collects, read by the test once the thread is done.
private final class Replies: @unchecked Sendable {
  // Unchecked: behind the lock.
  private let lock = NSLock()
  private var replies: [[String: Any]] = []
  private var error: String?

  func append(_ reply: [String: Any]) {
    lock.withLock { replies.append(reply) }
  }

  func fail(_ description: String) {
    lock.withLock { error = description }
  }

  var all: [[String: Any]] { lock.withLock { replies } }
  var failure: String? { lock.withLock { error } }
}
