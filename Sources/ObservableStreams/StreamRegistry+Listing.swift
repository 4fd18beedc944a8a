import ObservableWire

/// What `list` answers: the streams by kind and name, filtered and in pages.
///
/// A page costs O(log n + what it looks at), not O(n): topics are read in name order from
/// ``OrderedNames``, starting where the page starts, and a pattern filter walks only the names
/// that start with its literal tokens (``TopicRange``). A pattern that starts with a wildcard
/// has no such start; a page then looks at no more than ``listScanBudget`` topics and, when it
/// ran out, ends early with `next`, so a sparse match costs more pages, never a long turn.
extension StreamRegistry {
  /// One stream in a `list` reply.
  package typealias ListedStream = (name: String, kind: StreamKind, subscribers: Int)

  /// The most topics one page looks at: ten pages' worth, about a millisecond under the lock.
  static var listScanBudget: Int { 10 * StreamListEncoder.pageSize }

  /// Every stream with its kind and subscriber count, fixed streams first, then topics by name.
  package func list() -> [ListedStream] {
    (try? list(matching: nil)) ?? []
  }

  /// The streams `filter` names or matches, in the order of ``list()``; all of them when
  /// `filter` is `nil`. Unlike a pattern subscription, which reaches topics only, a pattern
  /// filter matches fixed streams too: listing is for finding streams, whatever their kind.
  package func list(matching filter: String?) throws(ProtocolError) -> [ListedStream] {
    var all: [ListedStream] = []
    var after: String?
    repeat {
      let page = try listPage(matching: filter, after: after, limit: StreamListEncoder.pageSize)
      all += page.streams
      after = page.next
    } while after != nil
    return all
  }

  /// One page of ``list(matching:)``: at most `limit` streams after the one named `after` in
  /// list order (fixed streams by name, then topics by name; `after` need not exist), and the
  /// name to continue after when more may remain. `next` is the page's last stream when the page
  /// is full; when a pattern's page looked at ``listScanBudget`` topics first, it is the last
  /// topic looked at, and the page may hold fewer streams, or none.
  ///
  /// `retained` adds topics that exist elsewhere (a clustered server's retained values in
  /// JetStream, already filtered), with no subscribers here, each in its place in name order.
  package func listPage(
    matching filter: String?, after: String?, limit: Int, retained: [String] = []
  ) throws(ProtocolError) -> (streams: [ListedStream], next: String?) {
    var isPattern = false
    if let filter { isPattern = try StreamName.validatePattern(filter) }
    let pattern = isPattern ? filter.map(TopicPattern.init) : nil
    // A name that is not a fixed stream's sorts among the topics, after every fixed stream.
    let afterTopic = after.map { sources[$0] == nil } ?? false
    var streams: [ListedStream] = []
    if !afterTopic {
      let fixed = sources.values.filter { source in
        if let after, source.name <= after { return false }
        guard let filter else { return true }
        return pattern?.matches(source.name) ?? (source.name == filter)
      }.sorted { $0.name < $1.name }
      streams = fixed.prefix(limit).map { ($0.name, $0.kind, $0.observerCount) }
      if fixed.count > limit { return (streams, streams.last?.name) }
    }
    let room = limit - streams.count
    let found = topicPage(
      filter: filter, isPattern: isPattern, after: afterTopic ? after : nil, limit: room)
    var local = found.topics.map { ($0.name, StreamKind.topic, $0.subscriberCount) }
    var end = found.end
    if !retained.isEmpty {
      (local, end) = withRetained(
        retained, in: local, end: end, after: afterTopic ? after : nil, limit: room)
    }
    streams += local
    switch end {
    case .complete: return (streams, nil)
    case .full: return (streams, streams.last?.name)
    case .scanned(let last): return (streams, last)
    }
  }

  /// A page of local topics with the names of `retained` that fall in its range and are not
  /// local topics themselves (or fixed streams) merged in, in name order, and how it ends.
  /// Names past where the local page ended wait for a later page, so none is listed twice.
  private func withRetained(
    _ retained: [String], in local: [ListedStream], end: TopicPageEnd, after: String?,
    limit: Int
  ) -> ([ListedStream], TopicPageEnd) {
    guard limit > 0 else { return (local, end) }
    let bound: String? =
      switch end {
      case .complete: nil
      case .full: local.last?.name
      case .scanned(let last): last
      }
    var seen = Set(local.map(\.name))
    var merged = local
    for name in retained
    where sources[name] == nil && after.map({ name > $0 }) ?? true
      && bound.map({ name <= $0 }) ?? true && (try? StreamName.validate(name)) != nil
      && seen.insert(name).inserted
    {
      merged.append((name, .topic, 0))
    }
    guard merged.count > local.count else { return (local, end) }
    merged.sort { $0.name < $1.name }
    guard merged.count > limit else { return (merged, end) }
    let page = Array(merged.prefix(limit))
    return (page, .scanned(page[limit - 1].name))
  }

  /// At most `limit` topics after `after` that `filter` names or matches, in name order, looked
  /// up under the registry's lock; their subscriber counts are read after it, under each
  /// topic's own.
  private func topicPage(filter: String?, isPattern: Bool, after: String?, limit: Int) -> (
    topics: [Topic], end: TopicPageEnd
  ) {
    guard isPattern || filter == nil else {
      // One name: the dictionary has it, or no topic matches.
      guard let filter, after.map({ filter > $0 }) ?? true,
        let topic = topics.withLock({ $0.topics[filter] })
      else { return ([], .complete) }
      return limit > 0 ? ([topic], .complete) : ([], .full)
    }
    let range = filter.map { TopicRange(pattern: $0) }
    var lowerBound = range?.prefix ?? ""
    var inclusive = true
    if let after, after >= lowerBound {
      lowerBound = after
      inclusive = false
    }
    let budget = Self.listScanBudget
    return topics.withLock { state in
      var found: [Topic] = []
      var looked = 0
      var end = TopicPageEnd.complete
      state.forEachTopic(from: lowerBound.isEmpty ? nil : lowerBound, inclusive: inclusive) {
        topic in
        let place = range?.place(of: topic.name) ?? .matched
        if place == .past { return false }
        if place == .matched {
          if found.count == limit {
            end = .full
            return false
          }
          found.append(topic)
        }
        looked += 1
        if looked >= budget {
          end = .scanned(topic.name)
          return false
        }
        return true
      }
      return (found, end)
    }
  }
}

/// Why a page of topics ended.
private enum TopicPageEnd {
  /// No further topic matches.
  case complete
  /// The page is full and another topic matches.
  case full
  /// The page looked at as many topics as it may; the next one starts after this name.
  case scanned(String)
}
