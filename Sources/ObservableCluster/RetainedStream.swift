import NATS

/// The JetStream stream that holds retained values: made (or updated) at each connection, one
/// message per subject, replicated on as many servers as configured or as the NATS cluster
/// has if fewer. Loop only.
package final class RetainedStream: @unchecked Sendable {
  // Unchecked: every member but `link` is touched on the link's loop only; the methods
  // that other threads call hop to the loop first.

  /// The stream of `link`, which owns it; made once the link connects.
  init(link: ClusterLink) {
    self.link = link
  }

  /// The link whose connection the stream's requests go through.
  unowned let link: ClusterLink
  /// Whether the stream exists with our configuration, or as another node made it.
  private(set) var isReady = false

  /// Makes (or updates) the stream, for a new connection.
  func ensure() {
    let known = link.state.withLock { $0.session.servers.servers.count }
    create(replicas: min(link.configuration.replicas, max(known, 1)), update: false)
  }

  private func create(replicas: Int, update: Bool) {
    let subjects = link.subjects
    let config = JetStreamStreamConfig(
      name: subjects.stream, subjects: [subjects.retained + ".>"], maxMessagesPerSubject: 1,
      replicas: replicas, allowDirect: true)
    let call = update ? JetStreamAPI.updateStream(config) : JetStreamAPI.createStream(config)
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(5)) {
        [self] result in
        do throws(JetStreamError) {
          _ = try JetStreamAPI.decodeStreamInfo(result)
          isReady = true
          link.logger.info(
            "cluster retained stream ready",
            metadata: ["stream": "\(subjects.stream)", "replicas": "\(replicas)"])
        } catch {
          failed(error, replicas: replicas, update: update)
        }
      }
    } catch {
      // Not connected: the next connection tries again.
    }
  }

  private func failed(_ error: JetStreamError, replicas: Int, update: Bool) {
    if case .api(let apiError) = error, apiError.errorCode == JetStreamAPIError.streamNameInUse {
      return create(replicas: replicas, update: true)
    }
    if update {
      // Another node made it with other settings; it holds retained values all the same.
      isReady = true
      link.logger.warning(
        "cluster retained stream kept as it was", metadata: ["error": "\(error)"])
      return
    }
    if !error.isTemporary, replicas > 1 {
      return create(replicas: replicas - 1, update: false)
    }
    link.logger.warning("cluster retained stream not ready", metadata: ["error": "\(error)"])
    link.loop?.schedule(in: .seconds(1)) { [self] in
      if !link.connection.stopped, !isReady, link.isConnected {
        create(replicas: replicas, update: false)
      }
    }
  }
}
