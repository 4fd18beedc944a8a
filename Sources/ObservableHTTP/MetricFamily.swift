/// One Prometheus metric family: a name, its help text and type, and its samples.
package struct MetricFamily: Sendable {
  /// Whether the value only goes up (and resets with the process) or goes up and down.
  enum Kind: String, Sendable {
    case counter
    case gauge
  }

  /// One value of the family, told apart from the others by its labels.
  struct Sample: Sendable {
    /// Label names and values, written in this order.
    var labels: [(name: String, value: String)]
    /// The value; counters are whole numbers, but the format carries floats.
    var value: Double

    /// A sample with `labels`.
    init(labels: [(name: String, value: String)] = [], value: Double) {
      self.labels = labels
      self.value = value
    }
  }

  /// The metric name; a counter's ends in `_total`, as Prometheus's conventions ask.
  var name: String
  /// One line saying what is measured and in which unit.
  var help: String
  /// Counter or gauge.
  var kind: Kind
  /// The values, one per label set.
  var samples: [Sample]

  /// A family of one sample without labels, the common case.
  static func single(_ name: String, _ kind: Kind, _ help: String, _ value: Int) -> MetricFamily {
    MetricFamily(name: name, help: help, kind: kind, samples: [Sample(value: Double(value))])
  }
}
