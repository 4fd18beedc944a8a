/// Made in `ObservableServer`, another module, which a memberwise initializer does not reach.
extension ConnectionSettings {
  /// The settings of one server's connections; what is not given keeps its default.
  package init(
    maxLineBytes: Int, maxQueuedBytes: Int, webSocketPingInterval: Duration,
    httpHeadTimeout: Duration, deflateLevel: Int, deflateFlushesEachLine: Bool,
    tlsHandshakeTimeout: Duration = .seconds(10)
  ) {
    self.maxLineBytes = maxLineBytes
    self.maxQueuedBytes = maxQueuedBytes
    self.webSocketPingInterval = webSocketPingInterval
    self.httpHeadTimeout = httpHeadTimeout
    self.deflateLevel = deflateLevel
    self.deflateFlushesEachLine = deflateFlushesEachLine
    self.tlsHandshakeTimeout = tlsHandshakeTimeout
  }
}
