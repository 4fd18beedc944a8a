extension LivePage {
  /// The page's script: one WebSocket to `/ws` speaking protocol v1 (the greeting first, then
  /// one JSON request per message), reconnecting with back-off. Values are shown with
  /// `textContent` only, never as markup, so a published value cannot inject script.
  ///
  /// One function scope in parts, each part in the file of its concern: the figures, the
  /// streams table, the topic inspector, the subscriptions, and the connection.
  static let script =
    scriptStart + figuresScript + streamsScript + inspectorScript + subscriptionsScript
    + connectionScript

  /// The scope's state and the helpers every part uses.
  private static let scriptStart = #"""
    "use strict";
    (() => {
      const MAX_VALUES = 50, MAX_SHOWN = 2000, LIST_EVERY_MS = 5000;
      const $ = (id) => document.getElementById(id);
      const s = { socket: null, greeted: false, nextId: 1, pending: new Map(), subs: new Map(),
        user: "", token: "", retry: 0, retryTimer: null, lastStats: null, features: [], listed: [],
        seen: new Map(), probe: null };

      function setStatus(state, text) {
        const el = $("status"); el.dataset.state = state; el.textContent = text;
      }
      function showError(code, message) {
        const el = $("error");
        if (!code) { el.hidden = true; el.textContent = ""; delete el.dataset.code; return; }
        el.hidden = false; el.dataset.code = code;
        el.textContent = code === "unauthorized"
          ? "Unauthorized: this server needs valid credentials. Enter them under Access, then Connect."
          : code + (message ? ": " + message : "");
      }
      // The auth request for what the Access fields hold: a user's token, or a signed token
      // (a JWT's three dot-separated parts), or the server's shared token.
      function authRequest() {
        if (s.user) return { op: "auth", user: s.user, token: s.token };
        if (s.token.split(".").length === 3) return { op: "auth", jwt: s.token };
        return { op: "auth", token: s.token };
      }
      function send(request, onReply) {
        if (!s.socket || s.socket.readyState !== WebSocket.OPEN || !s.greeted) return false;
        request.id = s.nextId++;
        if (onReply) s.pending.set(request.id, onReply);
        s.socket.send(JSON.stringify(request));
        return true;
      }
      function failed(reply) {
        if (reply.ok) return false;
        const error = reply.error || {};
        showError(error.code || "error", error.message || "");
        return true;
      }

      function matches(pattern, name) {
        const p = pattern.split("."), n = name.split(".");
        for (let i = 0; i < p.length; i++) {
          if (p[i] === ">") return i === p.length - 1 && n.length > i;
          if (i >= n.length || (p[i] !== "*" && p[i] !== n[i])) return false;
        }
        return p.length === n.length;
      }
      function shown(value) {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        return text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + "…" : text;
      }
      function bytes(count) {
        const units = ["B", "KiB", "MiB", "GiB", "TiB"];
        let value = count, unit = 0;
        while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
        return (unit ? value.toFixed(1) : String(value)) + " " + units[unit];
      }
    """#

  /// The socket, its greeting and replies, the forms, and the start.
  private static let connectionScript = #"""
      function onGreeting(greeting) {
        s.greeted = true; s.retry = 0; s.lastStats = null;
        s.features = Array.isArray(greeting.features) ? greeting.features : [];
        $("server-version").textContent = greeting.version ? "v" + greeting.version : "";
        setStatus("open", "Connected");
        if (s.token) send(authRequest(), (r) => { if (!failed(r)) showError(); });
        if (!s.subs.has("stats")) s.subs.set("stats", { visible: false, section: null, list: null });
        for (const name of s.subs.keys()) subscribeOnServer(name);
        refreshList();
      }
      function onMessage(event) {
        let message;
        try { message = JSON.parse(event.data); } catch { return; }
        if (!message || typeof message !== "object") return;
        if (!s.greeted) { if (message.hello) onGreeting(message); return; }
        if ("ok" in message) {
          const handler = s.pending.get(message.id);
          s.pending.delete(message.id);
          if (handler) handler(message); else failed(message);
        } else if ("stream" in message && "value" in message) {
          deliver(message);
        }
      }

      function socketAddress() {
        return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
      }
      function connect() {
        clearTimeout(s.retryTimer);
        setStatus("connecting", "Connecting…");
        let socket;
        try { socket = new WebSocket(socketAddress()); } catch { retryLater(0); return; }
        s.socket = socket;
        socket.addEventListener("message", onMessage);
        socket.addEventListener("close", (event) => {
          if (s.socket !== socket) return;
          s.socket = null; s.greeted = false; s.pending.clear();
          retryLater(event.code);
        });
      }
      function retryLater(code) {
        // Exponential back-off with jitter, so a restarted server is not met by every page
        // at the same moment.
        const delay = Math.min(15000, 500 * 2 ** s.retry) * (0.75 + Math.random() / 4);
        s.retry = Math.min(s.retry + 1, 10);
        setStatus("closed", "Disconnected" + (code ? " (" + code + ")" : "")
          + "; retrying in " + Math.ceil(delay / 1000) + " s");
        s.retryTimer = setTimeout(connect, delay);
      }

      $("token-form").addEventListener("submit", (event) => {
        event.preventDefault();
        s.user = $("user").value.trim(); s.token = $("token").value; s.retry = 0; showError();
        const old = s.socket; s.socket = null; s.greeted = false; s.pending.clear();
        if (old) old.close();
        connect();
      });
      $("subscribe-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const name = $("subscribe-name").value.trim();
        if (name) { addSubscription(name, true); $("subscribe-name").value = ""; }
      });
      $("publish-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const text = $("publish-value").value;
        let value;
        try { value = JSON.parse(text); } catch { value = text; }
        const request = { op: "publish", stream: $("publish-name").value.trim(), value };
        if ($("publish-retain").checked) request.retain = true;
        const result = $("publish-result");
        const sent = send(request, (reply) => {
          if (failed(reply)) { result.textContent = "Not published."; return; }
          result.dataset.receivers = String(reply.receivers);
          result.textContent = "Published to " + reply.receivers + " subscriber"
            + (reply.receivers === 1 ? "" : "s") + (request.retain ? ", retained." : ".");
        });
        if (!sent) result.textContent = "Not connected.";
      });

      const preset = new URLSearchParams(location.hash.slice(1));
      s.user = preset.get("user") || "";
      s.token = preset.get("token") || "";
      $("user").value = s.user;
      $("token").value = s.token;
      for (const name of preset.getAll("subscribe")) if (name) addSubscription(name, true);
      setInterval(refreshList, LIST_EVERY_MS);
      connect();
      document.documentElement.dataset.ready = "1";
    })();

    """#
}
