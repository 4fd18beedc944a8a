import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableHTTP
@testable import ObservableServer

/// The live page as built into the binary: self-contained, with the hooks its comment
/// documents, and a script a real browser runs.
@Suite("Live page", .timeLimit(.minutes(1)))
struct LivePageTests {
  /// The ids and attributes the page's header comment promises to tests and scripts.
  static let hooks = [
    #"id="status""#, #"data-state="#, #"id="server-version""#, #"id="error""#, #"id="token""#,
    #"id="connect""#, #"id="streams""#, #"id="subscribe-name""#, #"id="subscribe-form""#,
    #"id="subscriptions""#, #"id="publish-form""#, #"id="publish-name""#,
    #"id="publish-value""#, #"id="publish-retain""#, #"id="publish-result""#,
    #"data-figure="connections""#, #"data-figure="subscriptions""#, #"data-figure="rate""#,
    #"data-figure="bytes-out""#, "dataset.streamRow", "dataset.subscribers",
    "dataset.subscription", "dataset.stream =", "dataset.value", "dataset.unsubscribe",
    "dataset.ready",
  ]

  @Test func everyDocumentedHookIsThere() {
    for hook in Self.hooks {
      #expect(LivePage.html.contains(hook), "\(hook)")
    }
  }

  @Test func itLoadsNothingFromElsewhere() {
    let html = LivePage.html.lowercased()
    for outside in ["http://", "https://", "<link", "src=", "@import", "url(", "@font-face"] {
      #expect(!html.contains(outside), "\(outside)")
    }
    #expect(html.hasPrefix("<!doctype html>") && html.hasSuffix("</html>\n"))
    #expect(html.components(separatedBy: "<script").count == 2)
    #expect(LivePage.bytes == Array(LivePage.html.utf8))
  }

  @Test func valuesAreNeverWrittenAsMarkup() {
    // A published value is text from anyone: markup from it would be script injection.
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
      #expect(!LivePage.script.contains(sink), "\(sink)")
    }
  }

  @Test func aBrowserRunsTheScript() throws {
    let browser = try #require(
      // The binary itself before Debian's wrapper scripts, which run it as a child, so that
      // killing it on a timeout leaves no browser behind.
      [
        "/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell",
        "/usr/bin/chromium",
      ]
      .first { FileManager.default.isExecutableFile(atPath: $0) },
      "headless Chromium is needed: apt-get install chromium-headless-shell")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("live-page-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("page.html")
    // Under the policy the server sends, given here as a meta tag (which ignores only
    // frame-ancestors), so a policy that blocks the page's own script shows.
    let policy =
      #"<meta http-equiv="Content-Security-Policy" content="\#(LivePage.securityPolicy)">"#
    try Data(LivePage.html.replacingOccurrences(of: "<head>", with: "<head>" + policy).utf8)
      .write(to: page)
    let dom = directory.appendingPathComponent("dom.html")
    try Data().write(to: dom)
    let output = try FileHandle(forWritingTo: dom)
    defer { try? output.close() }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
      "--virtual-time-budget=2000", "--dump-dom", page.absoluteString,
    ]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let finished = eventually(timeout: .seconds(30)) { !process.isRunning }
    if !finished { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try #require(finished, "Chromium did not finish")
    let text = try String(contentsOf: dom, encoding: .utf8)
    // The script ran to its end; from a file there is no server, so nothing more to see.
    #expect(text.contains(#"data-ready="1""#), "\(text.prefix(300))")
  }
}
