import NATS

/// A JetStream stream of the cluster (retained values, or topic history): made (or updated)
/// at each connection, replicated on as many servers as configured or as the NATS cluster
/// has if fewer. Loop only.
package final class ClusterStream: @unchecked Sendable {
  // Unchecked: every member but `link` is touched on the link's loop only; the methods
  // that other threads call hop to the loop first.

  /// The stream of `link`, which owns it, made once the link connects with the configuration
  /// `configuration` gives for a number of replicas; `purpose` names it in the log
  /// ("retained", "history"). `ready` runs on the loop each time it is.
  init(
    link: ClusterLink, purpose: String,
    configuration: @escaping (_ replicas: Int) -> JetStreamStreamConfig,
    ready: @escaping () -> Void = {}
  ) {
    self.link = link
    self.purpose = purpose
    self.configuration = configuration
    self.ready = ready
  }

  /// The link whose connection the stream's requests go through.
  unowned let link: ClusterLink
  private let purpose: String
  private let configuration: (Int) -> JetStreamStreamConfig
  private let ready: () -> Void
  /// Whether the stream exists with our configuration, or as another node made it.
  private(set) var isReady = false

  /// Makes (or updates) the stream, for a new connection.
  func ensure() {
    let known = link.state.withLock { $0.session.servers.servers.count }
    create(replicas: min(link.configuration.replicas, max(known, 1)), update: false)
  }

  private func create(replicas: Int, update: Bool) {
    let config = configuration(replicas)
    let call = update ? JetStreamAPI.updateStream(config) : JetStreamAPI.createStream(config)
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(5)) {
        [self] result in
        do throws(JetStreamError) {
          _ = try JetStreamAPI.decodeStreamInfo(result)
          isReady = true
          link.logger.info(
            "cluster \(purpose) stream ready",
            metadata: ["stream": "\(config.name)", "replicas": "\(replicas)"])
          ready()
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
      // Another node made it with other settings; it holds the values all the same.
      isReady = true
      link.logger.warning(
        "cluster \(purpose) stream kept as it was", metadata: ["error": "\(error)"])
      ready()
      return
    }
    if !error.isTemporary, replicas > 1 {
      return create(replicas: replicas - 1, update: false)
    }
    link.logger.warning(
      "cluster \(purpose) stream not ready", metadata: ["error": "\(error)"])
    link.loop?.schedule(in: .seconds(1)) { [self] in
      if !link.connection.stopped, !isReady, link.isConnected {
        create(replicas: replicas, update: false)
      }
    }
  }
}
