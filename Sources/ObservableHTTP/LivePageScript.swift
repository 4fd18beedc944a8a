extension LivePage {
  /// The page's script: one WebSocket to `/ws` speaking protocol v1 (the greeting first, then
  /// one JSON request per message), reconnecting with back-off. Values are shown with
  /// `textContent` only, never as markup, so a published value cannot inject script.
  static let script = #"""
    "use strict";
    (() => {
      const MAX_VALUES = 50, MAX_SHOWN = 2000, LIST_EVERY_MS = 5000;
      const $ = (id) => document.getElementById(id);
      const s = { socket: null, greeted: false, nextId: 1, pending: new Map(), subs: new Map(),
        token: "", retry: 0, retryTimer: null, lastStats: null };

      function setStatus(state, text) {
        const el = $("status"); el.dataset.state = state; el.textContent = text;
      }
      function showError(code, message) {
        const el = $("error");
        if (!code) { el.hidden = true; el.textContent = ""; delete el.dataset.code; return; }
        el.hidden = false; el.dataset.code = code;
        el.textContent = code === "unauthorized"
          ? "Unauthorized: this server needs a valid token. Enter it under Access, then Connect."
          : code + (message ? ": " + message : "");
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
      function figure(name, value, text) {
        const el = document.querySelector('[data-figure="' + name + '"]');
        el.dataset.value = String(value); el.textContent = text;
      }

      function updateFigures(stats) {
        const now = performance.now();
        figure("connections", stats.connections, String(stats.connections));
        figure("subscriptions", stats.subscriptions, String(stats.subscriptions));
        figure("bytes-out", stats.bytes_out, bytes(stats.bytes_out));
        const last = s.lastStats;
        if (last && now > last.at && stats.published_total >= last.published) {
          const rate = (stats.published_total - last.published) * 1000 / (now - last.at);
          figure("rate", Math.round(rate), rate < 10 ? rate.toFixed(1) : String(Math.round(rate)));
        }
        s.lastStats = { at: now, published: stats.published_total };
      }

      function renderStreams(streams) {
        const body = $("streams").tBodies[0];
        body.replaceChildren(...streams.map((stream) => {
          const row = document.createElement("tr");
          row.dataset.streamRow = stream.name; row.dataset.subscribers = String(stream.subscribers);
          for (const text of [stream.name, stream.kind, String(stream.subscribers)]) {
            const cell = document.createElement("td"); cell.textContent = text; row.append(cell);
          }
          const cell = document.createElement("td"), button = document.createElement("button");
          const watching = s.subs.has(stream.name) && s.subs.get(stream.name).visible;
          button.type = "button"; button.className = "quiet"; button.disabled = watching;
          button.textContent = watching ? "Watching" : "Subscribe";
          button.setAttribute("aria-label", "Subscribe to " + stream.name);
          button.addEventListener("click", () => addSubscription(stream.name, true));
          cell.append(button); row.append(cell);
          return row;
        }));
      }
      function refreshList() { send({ op: "list" }, (r) => { if (!failed(r)) renderStreams(r.streams); }); }

      function subscribeOnServer(name) {
        send({ op: "subscribe", stream: name }, (reply) => {
          if (!reply.ok && reply.error && reply.error.code === "already_subscribed") return;
          if (failed(reply) && reply.error && reply.error.code === "bad_name") removeSubscription(name);
          else refreshList();
        });
      }
      function addSubscription(name, visible) {
        const existing = s.subs.get(name);
        if (existing) { if (visible && !existing.visible) show(name, existing); return; }
        const sub = { visible: false, section: null, list: null };
        s.subs.set(name, sub);
        if (visible) show(name, sub);
        subscribeOnServer(name);
      }
      function show(name, sub) {
        const section = document.createElement("section"), title = document.createElement("h3");
        const label = document.createElement("span"), button = document.createElement("button");
        section.dataset.subscription = name; label.textContent = name;
        button.type = "button"; button.className = "quiet"; button.textContent = "Unsubscribe";
        button.dataset.unsubscribe = name;
        button.setAttribute("aria-label", "Unsubscribe from " + name);
        button.addEventListener("click", () => removeSubscription(name));
        title.append(label, button);
        const list = document.createElement("ol");
        list.setAttribute("aria-label", "Values of " + name + ", newest first");
        section.append(title, list);
        $("subscriptions").prepend(section);
        sub.visible = true; sub.section = section; sub.list = list;
      }
      function removeSubscription(name) {
        const sub = s.subs.get(name);
        if (!sub) return;
        if (sub.section) sub.section.remove();
        if (name === "stats") { sub.visible = false; sub.section = sub.list = null; return; }
        s.subs.delete(name);
        send({ op: "unsubscribe", stream: name }, () => refreshList());
      }

      function deliver(message) {
        if (message.stream === "stats" && !message.sub) updateFigures(message.value);
        let targets;
        if (message.sub !== undefined) targets = [message.sub];
        else if (s.subs.has(message.stream)) targets = [message.stream];
        else targets = [...s.subs.keys()].filter((name) => matches(name, message.stream));
        for (const name of targets) {
          const sub = s.subs.get(name);
          if (!sub || !sub.list) continue;
          const row = document.createElement("li"), time = document.createElement("time");
          const label = document.createElement("span"), value = document.createElement("span");
          row.dataset.stream = message.stream;
          row.dataset.value = shown(JSON.stringify(message.value));
          time.textContent = new Date().toLocaleTimeString();
          label.className = "name"; label.textContent = message.stream;
          value.className = "value"; value.textContent = shown(message.value);
          row.append(time, label, value);
          sub.list.prepend(row);
          while (sub.list.children.length > MAX_VALUES) sub.list.lastElementChild.remove();
        }
      }

      function onGreeting(greeting) {
        s.greeted = true; s.retry = 0; s.lastStats = null;
        $("server-version").textContent = greeting.version ? "v" + greeting.version : "";
        setStatus("open", "Connected");
        if (s.token) send({ op: "auth", token: s.token }, (r) => { if (!failed(r)) showError(); });
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

      function connect() {
        clearTimeout(s.retryTimer);
        setStatus("connecting", "Connecting…");
        const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
        let socket;
        try { socket = new WebSocket(url); } catch { retryLater(0); return; }
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
        s.token = $("token").value; s.retry = 0; showError();
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
      s.token = preset.get("token") || "";
      $("token").value = s.token;
      for (const name of preset.getAll("subscribe")) if (name) addSubscription(name, true);
      setInterval(refreshList, LIST_EVERY_MS);
      connect();
      document.documentElement.dataset.ready = "1";
    })();

    """#
}
