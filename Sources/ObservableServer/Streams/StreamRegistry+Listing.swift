/// What `list` answers: the streams by kind and name, filtered and in pages.
extension StreamRegistry {
  /// Every stream with its kind and subscriber count, fixed streams first, then topics by name.
  func list() -> [(name: String, kind: StreamKind, subscribers: Int)] {
    let fixed = sources.values.sorted { $0.name < $1.name }.map {
      ($0.name, $0.kind, $0.observerCount)
    }
    let topicList = topics.withLock { $0.topics.values.map { $0 } }
      .map { ($0.name, StreamKind.topic, $0.subscriberCount) }
      .sorted { $0.0 < $1.0 }
    return fixed + topicList
  }

  /// The streams `filter` names or matches, in the order of ``list()``; all of them when
  /// `filter` is `nil`. Unlike a pattern subscription, which reaches topics only, a pattern
  /// filter matches fixed streams too: listing is for finding streams, whatever their kind.
  /// Topics are found through the trie of names, not by looking at every topic.
  ///
  /// `retained` adds topics that exist elsewhere (a clustered server's retained values in
  /// JetStream), with no subscribers here; names that are not topics are left out.
  func list(matching filter: String?, retained: [String] = []) throws(ProtocolError) -> [(
    name: String, kind: StreamKind, subscribers: Int
  )] {
    guard let filter else { return withRetained(list(), retained) }
    let isPattern = try StreamName.validatePattern(filter)
    let pattern = TopicPattern(filter)
    let fixed = sources.values.filter { isPattern ? pattern.matches($0.name) : $0.name == filter }
      .sorted { $0.name < $1.name }.map { ($0.name, $0.kind, $0.observerCount) }
    let found = topics.withLock { state in
      isPattern ? state.topics(matching: filter) : state.topics[filter].map { [$0] } ?? []
    }
    let topicList = found.map { ($0.name, StreamKind.topic, $0.subscriberCount) }
      .sorted { $0.0 < $1.0 }
    return withRetained(fixed + topicList, retained)
  }

  /// `listed` (fixed streams, then topics by name) with the topics of `retained` it lacks,
  /// in the same order.
  private func withRetained(
    _ listed: [(name: String, kind: StreamKind, subscribers: Int)], _ retained: [String]
  ) -> [(name: String, kind: StreamKind, subscribers: Int)] {
    guard !retained.isEmpty else { return listed }
    var known = Set(listed.map(\.name))
    var topicList = listed.filter { $0.kind == .topic }
    for name in retained
    where sources[name] == nil && (try? StreamName.validate(name)) != nil
      && known.insert(name).inserted
    {
      topicList.append((name, .topic, 0))
    }
    return listed.filter { $0.kind != .topic } + topicList.sorted { $0.name < $1.name }
  }

  /// One page of ``list(matching:)``: at most `limit` streams after the one named `after` in
  /// list order (fixed streams by name, then topics by name; `after` need not exist), and the
  /// name to continue after when more remain.
  func listPage(
    matching filter: String?, after: String?, limit: Int, retained: [String] = []
  ) throws(ProtocolError) -> (
    streams: [(name: String, kind: StreamKind, subscribers: Int)], next: String?
  ) {
    let all = try list(matching: filter, retained: retained)
    var start = 0
    if let after {
      let afterKey = (sources[after] == nil ? 1 : 0, after)
      start = all.firstIndex { ($0.kind == .topic ? 1 : 0, $0.name) > afterKey } ?? all.count
    }
    let end = min(start + limit, all.count)
    let page = Array(all[start..<end])
    return (page, end < all.count ? page.last?.name : nil)
  }
}
