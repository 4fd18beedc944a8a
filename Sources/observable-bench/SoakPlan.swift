/// What one soak client sets out to do, drawn at random when it connects.
///
/// The mix covers every way a client can load or upset the server: ordinary requests of every
/// kind, compression, reading too slowly, not reading at all, leaving abruptly, and never
/// authenticating. Each plan is bounded in steps and time, so the load stays bounded however
/// long the soak runs.
struct SoakPlan {
  /// The client's behaviour.
  enum Role: String, CaseIterable {
    /// Requests of every kind, reading every line.
    case chatty
    /// The same after `compress deflate`.
    case compressed
    /// Subscribes to the busy topics and reads a little at a time.
    case slowReader = "slow-reader"
    /// Publishes to a topic of its own, subscribed, and never reads: a slow consumer.
    case neverReader = "never-reader"
    /// Connects to a server with a token and sends nothing, until the auth timeout closes it.
    case neverAuthenticates = "never-authenticates"
  }

  /// One request of a chatty or compressed client.
  enum Step {
    case subscribe(String)
    case unsubscribe
    case publish(String, retain: Bool)
    case clear(String)
    case list
    case ping
  }

  /// How the client leaves once its steps are done.
  enum Ending: String, CaseIterable {
    /// `shutdown(SHUT_WR)`, read to the end, then close: every reply must have arrived.
    case halfClose = "fin"
    /// `SO_LINGER` 0 and close, so the kernel sends RST.
    case reset = "rst"
    /// close(2) straight away, with subscriptions still open and replies maybe unread.
    case abandon
  }

  var role: Role
  var steps: [Step]
  var ending: Ending
  /// Nanoseconds between steps, and how long a reader or a never-reader may last.
  var pace: UInt64
  var lifetime: UInt64

  /// Topic names: a small set, so that subscriptions, patterns, publishes and retained values
  /// of different clients meet.
  static func topic(_ random: inout some RandomNumberGenerator) -> String {
    "soak.t\(Int.random(in: 0..<8, using: &random)).v\(Int.random(in: 0..<8, using: &random))"
  }

  /// A pattern over ``topic(_:)``'s names.
  static func pattern(_ random: inout some RandomNumberGenerator) -> String {
    switch Int.random(in: 0..<5, using: &random) {
    case 0: "soak.>"
    case 1, 2: "soak.t\(Int.random(in: 0..<8, using: &random)).*"
    default: "soak.*.v\(Int.random(in: 0..<8, using: &random))"
    }
  }

  /// A random plan; `withToken` allows clients that never authenticate, and `clear` requests
  /// are planned only when the server lists the op.
  static func random(
    withToken: Bool, clearSupported: Bool, using random: inout some RandomNumberGenerator
  ) -> SoakPlan {
    let draw = Int.random(in: 0..<100, using: &random)
    let role: Role =
      switch draw {
      case 0..<55: .chatty
      case 55..<70: .compressed
      case 70..<80: .slowReader
      case 80..<85: .neverReader
      default: withToken ? .neverAuthenticates : .chatty
      }
    var steps: [Step] = []
    if role == .chatty || role == .compressed {
      for _ in 0..<Int.random(in: 3...40, using: &random) {
        steps.append(step(clearSupported: clearSupported, using: &random))
      }
    }
    return SoakPlan(
      role: role, steps: steps, ending: Ending.allCases.randomElement(using: &random)!,
      pace: UInt64.random(in: 0...100_000_000, using: &random),
      lifetime: UInt64.random(in: 2_000_000_000...6_000_000_000, using: &random))
  }

  private static func step(
    clearSupported: Bool, using random: inout some RandomNumberGenerator
  ) -> Step {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<20: .subscribe(topic(&random))
    case 20..<30: .subscribe(pattern(&random))
    case 30..<45: .unsubscribe
    case 45..<75: .publish(topic(&random), retain: false)
    case 75..<85: .publish(topic(&random), retain: true)
    case 85..<90: clearSupported ? .clear(topic(&random)) : .ping
    case 90..<95: .list
    default: .ping
    }
  }
}

extension SoakPlan.Step {
  /// The request line for this step. `subscriptions` are the names the client holds: a
  /// subscribe adds one and an unsubscribe takes the newest, and where the step cannot apply
  /// (a name already held, nothing to unsubscribe) a `ping` keeps the request count the same.
  func request(holding subscriptions: inout [String]) -> String {
    switch self {
    case .subscribe(let name):
      guard !subscriptions.contains(name) else { return #"{"op":"ping"}"# }
      subscriptions.append(name)
      return #"{"op":"subscribe","stream":"\#(name)"}"#
    case .unsubscribe:
      guard let name = subscriptions.popLast() else { return #"{"op":"ping"}"# }
      return #"{"op":"unsubscribe","stream":"\#(name)"}"#
    case .publish(let name, let retain):
      let value = String(repeating: "v", count: Int.random(in: 0...200))
      return #"{"op":"publish","stream":"\#(name)","value":"\#(value)","retain":\#(retain)}"#
    case .clear(let name):
      return #"{"op":"clear","stream":"\#(name)"}"#
    case .list:
      return #"{"op":"list"}"#
    case .ping:
      return #"{"op":"ping"}"#
    }
  }
}
