/// The text formats `/metrics` answers in, chosen by the scraper's `Accept` header.
///
/// Prometheus asks for OpenMetrics first and takes the 0.0.4 text format too; other scrapers
/// (and `curl`) ask for neither and get 0.0.4. The two differ in how a counter is named: in
/// OpenMetrics its family is `x` and its sample `x_total`, so a gauge `x` beside a counter
/// `x_total` would be one name twice, which is why no gauge is named after a counter.
package enum MetricsFormat: Sendable {
  /// The Prometheus text exposition format, version 0.0.4.
  case prometheus
  /// OpenMetrics 1.0.0 text, which ends in `# EOF`.
  case openMetrics

  /// The format for a request with this `Accept` header, if any: OpenMetrics when it is
  /// named, else 0.0.4.
  init(accept: String?) {
    let asksOpenMetrics = accept?.lowercased().contains("application/openmetrics-text") ?? false
    self = asksOpenMetrics ? .openMetrics : .prometheus
  }

  /// The `Content-Type` of a response in this format.
  var contentType: String {
    switch self {
    case .prometheus: "text/plain; version=0.0.4; charset=utf-8"
    case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
    }
  }
}
