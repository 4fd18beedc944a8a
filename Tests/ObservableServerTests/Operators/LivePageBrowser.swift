import Foundation

/// Headless Chromium showing a running server's live page, driven by
/// `Scripts/live_page_check.py` over the DevTools protocol; needs only the server's URL.
///
/// For the real server's test once `--http` is served:
/// ```
/// let shown = try LivePageBrowser(url: "http://127.0.0.1:\(port)/")
///   .check(subscribe: ["clock", "news.*"], publish: "news.1", expect: ["clock", "news.1"])
/// #expect(shown.passed, "\(shown.summary)")
/// ```
struct LivePageBrowser {
  /// What the page showed.
  struct Outcome {
    /// Whether every expectation held and the page threw no exception.
    var passed: Bool
    /// The script's JSON summary: the page's state, values per stream, figures.
    var summary: [String: Any]
  }

  /// The page's address, such as `http://127.0.0.1:7080/`.
  let url: String

  /// Loads the page preset with `user`, `token` and `subscribe`, publishes to `publish` over `/ws`
  /// meanwhile, and waits up to `timeout` for `minimumValues` rows of each stream in `expect`
  /// (or for the error `expectError`), and for what `dashboard` expects. Keeps a screenshot at
  /// `screenshot` when given. An https page's certificate is signed by `certificateAuthority`.
  func check(
    user: String? = nil, token: String? = nil, subscribe: [String], publish: String? = nil,
    expect: [String] = [],
    minimumValues: Int = 2, expectFigures: Bool = false, expectError: String? = nil,
    screenshot: URL? = nil, certificateAuthority: String? = nil,
    dashboard: DashboardExpectation = DashboardExpectation(), timeout: Duration = .seconds(20)
  ) throws -> Outcome {
    var arguments = ["--url", url, "--min-values", "\(minimumValues)"]
    // An https page: the browser ignores certificate errors, the publisher trusts this file.
    if let certificateAuthority { arguments += ["--ca", certificateAuthority] }
    arguments += ["--timeout", "\(timeout.components.seconds)"]
    if let token { arguments += ["--token", token] }
    if let user { arguments += ["--user", user] }
    arguments += subscribe.flatMap { ["--subscribe", $0] }
    arguments += expect.flatMap { ["--expect-stream", $0] }
    if let publish { arguments += ["--publish", publish] }
    if expectFigures { arguments.append("--expect-figures") }
    if let expectError { arguments += ["--expect-error", expectError] }
    if let screenshot { arguments += ["--screenshot", screenshot.path] }
    arguments += dashboard.arguments
    // Exit 1 means an expectation failed, which the summary explains; let it through.
    let output = try PythonScript(name: "live_page_check.py")
      .run(arguments, importing: "websockets", timeout: timeout + .seconds(30), allowing: [1])
    let summary = try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
    return Outcome(passed: summary["ok"] as? Bool == true, summary: summary)
  }
}
