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
        #user, #token, #connect       the user and token fields (a signed token, a JWT, goes in
                                      #token with #user empty) and the button that reconnects
        #streams tr[data-stream-row=NAME] [data-subscribers=N]   one row per stream from list
        #subscribe-name, #subscribe-form   name or pattern to subscribe to
        #subscriptions section[data-subscription=NAME]   one per subscription
          li[data-stream=CONCRETE][data-value=JSON]   one value row, newest first (at most 50)
          button[data-unsubscribe=NAME]
        #publish-form: #publish-name, #publish-value, #publish-retain; #publish-result
        [data-figure=NAME][data-value=N]   from stats: uptime, connections, subscriptions, rate
          (published/s), delivered-rate, bytes-out, dropped, slow-consumers, retained-bytes,
          cluster (1 connected, 0 not, -1 not clustered)
        #all-figures tr[data-stat=KEY][data-value=V]   every stats figure, cluster.* included
        canvas[data-chart=published|delivered|bytes-out][data-points=N]   the last 60 seconds
        #streams tr[data-via-pattern]   a topic seen only through a pattern subscription
          button[data-inspect=NAME]   opens #inspector for that topic
        #inspector[data-stream=NAME]: #inspect-retained[data-state=loading|value|none],
          #inspect-history li[data-pos], #inspect-clear, #inspect-result[data-outcome]
      The URL fragment may preset the page: #user=U&token=T&subscribe=clock&subscribe=room.*
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
          <div><dt>Uptime</dt><dd data-figure="uptime">–</dd></div>
          <div><dt>Connections</dt><dd data-figure="connections">–</dd></div>
          <div><dt>Subscriptions</dt><dd data-figure="subscriptions">–</dd></div>
          <div><dt>Published/s</dt><dd data-figure="rate">–</dd></div>
          <div><dt>Delivered/s</dt><dd data-figure="delivered-rate">–</dd></div>
          <div><dt>Bytes out</dt><dd data-figure="bytes-out">–</dd></div>
          <div><dt>Dropped</dt><dd data-figure="dropped">–</dd></div>
          <div><dt>Slow consumers</dt><dd data-figure="slow-consumers">–</dd></div>
          <div><dt>Retained</dt><dd data-figure="retained-bytes">–</dd></div>
          <div><dt>Cluster</dt><dd data-figure="cluster">–</dd></div>
        </dl>
        <div class="charts">
          <figure><canvas data-chart="published" width="240" height="48"
            aria-label="Published per second, last minute"></canvas>
            <figcaption>Published/s</figcaption></figure>
          <figure><canvas data-chart="delivered" width="240" height="48"
            aria-label="Delivered per second, last minute"></canvas>
            <figcaption>Delivered/s</figcaption></figure>
          <figure><canvas data-chart="bytes-out" width="240" height="48"
            aria-label="Bytes out per second, last minute"></canvas>
            <figcaption>Bytes out/s</figcaption></figure>
        </div>
        <details id="all-figures"><summary>Every figure</summary>
          <table><tbody></tbody></table></details>
      </section>
      <section aria-labelledby="inspector-title" class="panel" id="inspector" hidden>
        <h2 id="inspector-title">Topic <span id="inspect-name"></span></h2>
        <h3>Retained value</h3>
        <pre id="inspect-retained" data-state="none"></pre>
        <h3>History</h3>
        <ol id="inspect-history" aria-label="Recent values, oldest first"></ol>
        <p id="inspect-history-note"></p>
        <div class="row">
          <button id="inspect-clear" type="button">Clear retained value</button>
          <button id="inspect-close" type="button" class="quiet">Close</button>
        </div>
        <p id="inspect-result" aria-live="polite"></p>
      </section>
      <section aria-labelledby="access-title" class="panel">
        <h2 id="access-title">Access</h2>
        <form id="token-form" class="row">
          <label for="user">User</label>
          <input id="user" autocomplete="username" placeholder="none: the shared token or a JWT">
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
