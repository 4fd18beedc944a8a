/// What the live page's dashboard parts must show before ``LivePageBrowser/check`` passes.
struct DashboardExpectation {
  /// Figures the "Every figure" table must list, such as `uptime_s`.
  var stats: [String] = []
  /// Points each rate chart must have drawn.
  var chartPoints = 0
  /// Topics the streams table must show as reached only through a pattern.
  var viaPattern: [String] = []
  /// A topic to open in the inspector.
  var inspect: String?
  /// The JSON the inspector must show as that topic's retained value.
  var retained: String?
  /// When set, Clear is clicked and this outcome expected: `cleared`, `nothing`, `forbidden`.
  var clearOutcome: String?

  /// The script's flags for these expectations.
  var arguments: [String] {
    var arguments = stats.flatMap { ["--expect-stat", $0] }
    if chartPoints > 0 { arguments += ["--expect-chart-points", "\(chartPoints)"] }
    arguments += viaPattern.flatMap { ["--expect-via-pattern", $0] }
    if let inspect { arguments += ["--inspect", inspect] }
    if let retained { arguments += ["--expect-retained", retained] }
    if let clearOutcome { arguments += ["--expect-clear", clearOutcome] }
    return arguments
  }
}
