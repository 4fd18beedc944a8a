/// The text exposition of metric families: Prometheus's format 0.0.4, what `/metrics` answers
/// by default, or OpenMetrics 1.0.0 for a scraper that asks for it (``MetricsFormat``).
///
/// Each family is written as `# HELP`, `# TYPE`, then its samples, in the order given, so the
/// output is stable from one scrape to the next. Names that the format does not allow are made
/// valid (each bad character becomes `_`) rather than refused, since a scrape that fails
/// shows nothing at all.
package enum PrometheusText {
  /// The `Content-Type` of the 0.0.4 format.
  static let contentType = MetricsFormat.prometheus.contentType

  /// `families` in `format`, ending in a newline (after `# EOF` in OpenMetrics).
  static func encode(_ families: [MetricFamily], format: MetricsFormat = .prometheus) -> String {
    var text = ""
    for family in families {
      let name = metricName(family.name)
      // OpenMetrics names a counter's family without the `_total` its sample carries.
      let familyName =
        format == .openMetrics && family.kind == .counter && name.hasSuffix("_total")
        ? String(name.dropLast("_total".count)) : name
      let help = format == .openMetrics ? escapeLabel(family.help) : escapeHelp(family.help)
      text += "# HELP \(familyName) \(help)\n"
      text += "# TYPE \(familyName) \(family.kind.rawValue)\n"
      for sample in family.samples {
        text += name
        if !sample.labels.isEmpty {
          let pairs = sample.labels.map { "\(labelName($0.name))=\"\(escapeLabel($0.value))\"" }
          text += "{" + pairs.joined(separator: ",") + "}"
        }
        text += " " + number(sample.value) + "\n"
      }
    }
    if format == .openMetrics { text += "# EOF\n" }
    return text
  }

  /// A valid metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
  static func metricName(_ name: String) -> String {
    sanitized(name, allowsColon: true)
  }

  /// A valid label name: `[a-zA-Z_][a-zA-Z0-9_]*`, never starting with the reserved `__`.
  static func labelName(_ name: String) -> String {
    let valid = sanitized(name, allowsColon: false)
    return valid.hasPrefix("__") ? "x" + valid : valid
  }

  /// A label value inside its quotes: backslash, quote and newline escaped.
  static func escapeLabel(_ value: String) -> String {
    var escaped = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Help text in 0.0.4: backslash and newline escaped (quotes need none there; OpenMetrics
  /// escapes them as in label values).
  static func escapeHelp(_ help: String) -> String {
    help.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n")
  }

  /// A value as the format writes it: whole numbers without a fraction, and `+Inf`, `-Inf`,
  /// `NaN` for the special values.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  private static func sanitized(_ name: String, allowsColon: Bool) -> String {
    guard !name.isEmpty else { return "_" }
    var result = ""
    for (index, scalar) in name.unicodeScalars.enumerated() {
      let valid: Bool
      switch scalar {
      case "a"..."z", "A"..."Z", "_": valid = true
      case "0"..."9": valid = index > 0
      case ":": valid = allowsColon
      default: valid = false
      }
      result.unicodeScalars.append(valid ? scalar : "_")
    }
    return result
  }
}

extension String {
  /// Every occurrence of `target` replaced, without Foundation.
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
