import Foundation
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

/// A clustered server's gap notice: a subscription with positions whose JetStream consumer
/// fell behind the history while connected gets `{"stream":…,"recovered":false,"pos":…}`
/// before the first value after the gap, and the client reports it as a gap.
@Suite("A clustered server's gap notice", .timeLimit(.minutes(1)))
struct ClientGapNoticeTests {
  @Test("a notice mid-stream is reported once, with the last position, between the values")
  func noticeReported() async throws {
    let server = try ScriptedServer(
      greeting:
        #"{"hello":"observable-server","version":"1.2.0","protocol":1,"features":["sub","history"]}"#,
      requests: 1,
      then: [
        #"{"stream":"room.1","sub":"room.*","value":1,"pos":"5f3a09c2-10"}"#,
        #"{"stream":"room.2","sub":"room.*","recovered":false,"pos":"5f3a09c2-14"}"#,
        #"{"stream":"room.2","sub":"room.*","value":2,"pos":"5f3a09c2-14"}"#,
      ])
    let client = try ObservableClient("127.0.0.1:\(server.port)", configuration: .quiet())
    try await client.connect()
    defer { client.close() }
    let values = Received<Delivery>()
    let gaps = Received<ResumeGap>()
    let subscriptions = [
      client.gaps.subscribe { gaps.append($0) },
      client.stream("room.*").subscribe { values.append($0) },
    ]
    defer { for subscription in subscriptions { subscription.unsubscribe() } }
    #expect(await eventually { values.count == 2 && gaps.count == 1 })
    #expect(values.all.map(\.valueText) == ["1", "2"])
    #expect(
      gaps.all
        == [ResumeGap(subscription: "room.*", since: "5f3a09c2-10", cause: .historyEvicted)])
  }
}
