import NATS

/// Asking a stream's leader what it holds.
extension ClusterLink {
  /// Asks `stream`'s leader for its state, with the number of messages of each subject
  /// `filter` matches; `completion` gets it, or `nil` when the call failed or timed out.
  /// Loop only; `completion` runs on the loop.
  ///
  /// The leader answers a stream info, and it has every message JetStream acknowledged,
  /// which a replica may not have yet.
  func streamStatus(
    _ stream: String, subjectsFilter filter: String,
    then completion: @escaping (JetStreamStreamStatus?) -> Void
  ) {
    let call = JetStreamAPI.streamInfo(name: stream, subjectsFilter: filter)
    do throws(NATSCommandError) {
      try connection.request(call.subject, payload: call.body, timeout: .seconds(2)) { result in
        completion(try? JetStreamAPI.decodeStreamStatus(result))
      }
    } catch {
      completion(nil)
    }
  }
}
