import Foundation

/// The scenarios a command line asks for, with their sizes.
extension BenchCommand {
  /// `--pattern-matches` as counts, or `nil` when one is not a count from 1 to 128.
  var parsedPatternMatches: [Int]? {
    let counts = patternMatches.split(separator: ",").map {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard !counts.isEmpty, counts.allSatisfy({ (1...128).contains($0 ?? 0) }) else { return nil }
    return counts.compactMap { $0 }
  }

  /// `--subscribers` as counts, or `nil` when one is not a positive count.
  var parsedSubscribers: [Int]? {
    let counts = subscribers.split(separator: ",").map {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 }) else { return nil }
    return counts.compactMap { $0 }
  }

  /// `--transport` as transports; those it does not know are left out.
  var parsedTransports: [BenchTransport] {
    transport.split(separator: ",").compactMap {
      BenchTransport(rawValue: $0.trimmingCharacters(in: .whitespaces))
    }
  }

  /// The measurements in the order they run; writes the auth files that fan-out rows with
  /// `--auth-users` need (removed once the rows are gone).
  func measurements(_ selected: [ScenarioName]) throws(BenchError) -> [any Scenario] {
    let payload = Payload(size: payloadBytes)
    var list: [any Scenario] = []
    if selected.contains(.fanOut) {
      let authFiles = try fanOutAuth.files(topic: FanOutScenario.stream)
      for count in parsedSubscribers ?? [] {
        for transport in parsedTransports {
          // With and without authorization in turn, so that both see the same load.
          for users in fanOutAuth.parsedUsers ?? [0] {
            list.append(
              FanOutScenario(
                configuration: .init(
                  subscribers: count,
                  messages: messages ?? min(1_000_000, max(20_000, 6_000_000 / count)),
                  window: window, payload: payload, transport: transport,
                  auth: authFiles[users])))
          }
        }
      }
    }
    if selected.contains(.latency) {
      list.append(
        LatencyScenario(
          configuration: .init(
            rate: rate, subscribers: latencySubscribers, seconds: latencySeconds,
            payload: payload)))
    }
    if selected.contains(.memory) {
      list.append(ConnectionMemoryScenario(connections: connections))
    }
    if selected.contains(.churn) { list.append(ChurnScenario(pairs: pairs)) }
    if selected.contains(.soak) {
      // A fresh random token per run: only the benchmark's own clients know it.
      let secret = token ? String(UInt64.random(in: 1...UInt64.max), radix: 36) : nil
      list.append(
        SoakScenario(
          configuration: .init(
            seconds: duration, clients: clients, token: secret, history: soakHistory)))
    }
    if selected.contains(.patterns) {
      list.append(
        PatternsScenario(kind: .unmatched, patterns: patterns, publishes: patternPublishes))
      for k in parsedPatternMatches ?? [] {
        list.append(
          PatternsScenario(
            kind: .matching(k), patterns: patterns,
            publishes: min(patternPublishes, max(1000, 2_000_000 / k))))
      }
    }
    return list
  }
}
