import ArgumentParser

/// The scenarios `--scenario` selects, in the order they run.
enum ScenarioName: String, CaseIterable, ExpressibleByArgument {
  case fanOut = "fan-out"
  case latency
  case memory
  case churn
  case patterns
  case soak
  /// Run alone: it starts its own servers, Redis and NATS among them.
  case broadcast
}
