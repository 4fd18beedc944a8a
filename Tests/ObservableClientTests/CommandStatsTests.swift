import Testing

/// `observable stats` on the snapshot of a clustered server, whose `cluster` member is an
/// object: served by a stand-in that sends a line taken from a real `observable-server
/// --cluster` (joined to a nats-server with JetStream), so no NATS is needed here.
@Suite("The observable command: stats of a clustered server", .timeLimit(.minutes(1)))
struct CommandStatsTests {
  /// The value of a `stats` delivery from `observable-server --cluster nats://127.0.0.1:24222`
  /// 1.0.0, as it arrived.
  static let clusteredSnapshot =
    #"{"connections":1,"connections_total":1,"subscriptions":1,"subscribes_total":1,"#
    + #""disconnects_total":0,"published_total":0,"delivered_total":0,"dropped_total":0,"#
    + #""slow_consumers_total":0,"bytes_in":36,"bytes_out":126,"bytes_out_uncompressed":126,"#
    + #""subscription_limit_total":0,"retained_limit_total":0,"retained_bytes":0,"#
    + #""dead_peers_total":0,"auth_timeouts_total":0,"auth_failures_total":0,"#
    + #""websocket_connections":0,"websocket_connections_total":0,"http_requests_total":0,"#
    + #""send_batches_total":0,"batched_sends_total":0,"uptime_s":3,"cluster":{"#
    + #""connected":true,"server":"nats://127.0.0.1:24222","values_in":0,"values_out":0,"#
    + #""values_dropped":0,"values_rejected":0,"retained_stored":0,"retained_failed":0,"#
    + #""reconnects":0,"disconnects":0,"subscriptions":0}}"#

  /// A stand-in server that answers the `subscribe stats` and sends the snapshot.
  func server() throws -> ScriptedServer {
    try ScriptedServer(
      greeting: #"{"hello":"observable-server","version":"1.0.0","protocol":1,"features":["sub"]}"#,
      requests: 1,
      then: [#"{"stream":"stats","value":\#(Self.clusteredSnapshot)}"#])
  }

  @Test("nested objects print as NAME VALUE columns with dotted names, not a dictionary dump")
  func columns() throws {
    let server = try server()
    let run = try CommandRun(["stats"], port: server.port)
    #expect(run.status == 0)
    // 24 counters of the server and 11 of its link to NATS, one row each.
    #expect(run.lines.count == 35)
    let rows = run.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    #expect(rows.allSatisfy { $0.count == 2 }, "\(run.stdout)")
    #expect(run.lines.allSatisfy { !$0.contains("[") && !$0.contains("\"") }, "\(run.stdout)")
    let values = Dictionary(
      rows.filter { $0.count == 2 }.map { (String($0[0]), String($0[1])) }
    ) { first, _ in first }
    #expect(values["cluster.connected"] == "true")
    #expect(values["cluster.server"] == "nats://127.0.0.1:24222")
    #expect(values["cluster.values_in"] == "0")
    #expect(values["bytes_out"] == "126")
    #expect(values["cluster"] == nil)
    // The values start in one column.
    let valueColumns = Set(run.lines.map { $0.count - ($0.split(separator: " ").last?.count ?? 0) })
    #expect(valueColumns.count == 1)
    #expect(run.lines == run.lines.sorted())
  }

  @Test("--json prints the snapshot as the server sent it")
  func json() throws {
    let server = try server()
    let run = try CommandRun(["stats", "--json"], port: server.port)
    #expect(run.status == 0)
    #expect(run.stdout == Self.clusteredSnapshot + "\n")
  }
}
