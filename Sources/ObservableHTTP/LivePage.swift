/// The page served at `/`: a live view of the server for people, in one HTML document with
/// its style and script inline, so it needs no build step, no CDN and no other request.
///
/// It is compiled into the binary as string literals rather than shipped as a SwiftPM
/// resource: a resource lives in a `.resources` directory beside the executable and is found
/// through `Bundle.module` at run time, so the static binary copied alone into the Docker
/// image (or onto a host for systemd) would serve nothing; a literal travels with the code.
/// The markup, style and script are in three files to keep each readable.
public enum LivePage {
  /// The `Content-Type` to serve it with.
  public static let contentType = "text/html; charset=utf-8"

  /// The `Content-Security-Policy` to serve it with: the inline style and script, and
  /// connections back to the same host (`/ws`), nothing else; no framing by other sites.
  public static let securityPolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// The whole document.
  public static let html = documentHead + style + documentBody + script + documentEnd

  /// The UTF-8 bytes of the document, for writing to a socket.
  public static let bytes = Array(html.utf8)

  private static let documentEnd = "</script>\n</body>\n</html>\n"

  private static let documentHead = #"""
    <!doctype html>
    <!--
      observable-server live page. Stable hooks for tests and scripts:
        html[data-ready="1"]          the script ran
        #status[data-state]           "connecting", "open" (greeting received) or "closed"
        #server-version               the server's version from the greeting
        #error[data-code]             the last error code shown (e.g. "unauthorized"), or none
        #token, #connect              the token field and the button that reconnects with it
        #streams tr[data-stream-row=NAME] [data-subscribers=N]   one row per stream from list
        #subscribe-name, #subscribe-form   name or pattern to subscribe to
        #subscriptions section[data-subscription=NAME]   one per subscription
          li[data-stream=CONCRETE][data-value=JSON]   one value row, newest first (at most 50)
          button[data-unsubscribe=NAME]
        #publish-form: #publish-name, #publish-value, #publish-retain; #publish-result
        [data-figure=connections|subscriptions|rate|bytes-out][data-value=N]   from stats
      The URL fragment may preset the page: #token=T&subscribe=clock&subscribe=room.*
      (a fragment is never sent to the server, so the token stays out of its logs).
    -->
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>observable-server</title>
    <style>

    """#

  private static let documentBody = #"""
    </style>
    </head>
    <body>
    <header>
      <h1>observable-server <span id="server-version"></span></h1>
      <p id="status" data-state="connecting" role="status" aria-live="polite">Connecting…</p>
    </header>
    <p id="error" role="alert" hidden></p>
    <main>
      <section aria-labelledby="figures-title" class="panel">
        <h2 id="figures-title">Now</h2>
        <dl class="figures">
          <div><dt>Connections</dt><dd data-figure="connections">–</dd></div>
          <div><dt>Subscriptions</dt><dd data-figure="subscriptions">–</dd></div>
          <div><dt>Messages/s</dt><dd data-figure="rate">–</dd></div>
          <div><dt>Bytes out</dt><dd data-figure="bytes-out">–</dd></div>
        </dl>
      </section>
      <section aria-labelledby="access-title" class="panel">
        <h2 id="access-title">Access</h2>
        <form id="token-form" class="row">
          <label for="token">Token</label>
          <input id="token" type="password" autocomplete="off" placeholder="none">
          <button id="connect" type="submit">Connect</button>
        </form>
      </section>
      <section aria-labelledby="streams-title" class="panel">
        <h2 id="streams-title">Streams</h2>
        <table id="streams">
          <thead><tr><th scope="col">Name</th><th scope="col">Kind</th>
            <th scope="col">Subscribers</th><th scope="col"><span class="hidden">Action</span></th>
          </tr></thead>
          <tbody></tbody>
        </table>
      </section>
      <section aria-labelledby="subscribe-title" class="panel">
        <h2 id="subscribe-title">Subscribe</h2>
        <form id="subscribe-form" class="row">
          <label for="subscribe-name">Name or pattern</label>
          <input id="subscribe-name" required placeholder="clock, room.*, room.>">
          <button type="submit">Subscribe</button>
        </form>
        <div id="subscriptions"></div>
      </section>
      <section aria-labelledby="publish-title" class="panel">
        <h2 id="publish-title">Publish</h2>
        <form id="publish-form">
          <div class="row">
            <label for="publish-name">Topic</label>
            <input id="publish-name" required placeholder="room.1">
          </div>
          <div class="row">
            <label for="publish-value">Value</label>
            <input id="publish-value" placeholder='{"temp":21.5} or any text'>
          </div>
          <div class="row">
            <input id="publish-retain" type="checkbox">
            <label for="publish-retain" class="inline">Retain as the topic's last value</label>
            <button type="submit">Publish</button>
          </div>
          <p id="publish-result" aria-live="polite"></p>
        </form>
      </section>
    </main>
    <script>

    """#
}
