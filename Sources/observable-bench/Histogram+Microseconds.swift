import Histogram

extension Histogram<UInt64> {
  /// The value at `percentile`, nanoseconds recorded, in microseconds.
  func microseconds(at percentile: Double) -> Double {
    Double(valueAtPercentile(percentile)) / 1000
  }
}
