extension LivePage {
  /// The topic inspector: a topic's retained value and recent history, and a button that
  /// clears the retained value when the user may.
  ///
  /// It reads through a second, short-lived socket, so that the page's own subscription to
  /// the topic, if any, goes on untouched. The server sends a subscribe's reply first and the
  /// retained value right after it, so the one value between that reply and the reply to the
  /// `ping` sent next is the retained value; a topic without one may, rarely, show a value
  /// published at that very moment instead.
  static let inspectorScript = #"""
      const HISTORY_SHOWN = 20;

      function inspect(name) {
        const panel = $("inspector"), result = $("inspect-result");
        panel.hidden = false; panel.dataset.stream = name;
        $("inspect-name").textContent = name;
        result.textContent = ""; delete result.dataset.outcome;
        $("inspect-clear").disabled = false;
        readTopic(name);
      }
      function readTopic(name) {
        const retained = $("inspect-retained"), note = $("inspect-history-note");
        const history = s.features.includes("history");
        retained.dataset.state = "loading"; retained.textContent = "Reading…";
        $("inspect-history").replaceChildren();
        note.textContent = history ? "Reading…"
          : "This server keeps no history (it runs without --history).";
        if (s.probe) s.probe.close();
        const socket = new WebSocket(socketAddress()), lines = [];
        let greeted = false, phase = "subscribe", value;
        s.probe = socket;
        const request = (object) => socket.send(JSON.stringify(object));
        socket.addEventListener("message", (event) => {
          let message;
          try { message = JSON.parse(event.data); } catch { return; }
          if (s.probe !== socket || !message || typeof message !== "object") return;
          if (!greeted) {
            greeted = true;
            if (s.token) request(Object.assign(authRequest(), { id: 1 }));
            request({ op: "subscribe", stream: name, id: 2 });
            request({ op: "ping", id: 3 });
            if (history) request({ op: "history", stream: name, limit: HISTORY_SHOWN, id: 4 });
            return;
          }
          if (!("ok" in message)) {
            if (message.stream !== name || !("value" in message)) return;
            if (phase === "retained" && value === undefined) value = message;
            if (phase === "history") lines.push(message);
            return;
          }
          if (!message.ok) {
            const error = message.error || {};
            if (message.id === 2 || message.id === 1) showRetained(undefined, error.code);
            if (message.id === 4) note.textContent = "History: " + (error.code || "error");
            if (message.id !== 4 && message.id !== 2) return;
          }
          if (message.id === 2) phase = "retained";
          if (message.id === 3) {
            if (retained.dataset.state === "loading") showRetained(value);
            phase = "history";
            if (!history) socket.close();
          }
          if (message.id === 4) { if (message.ok) showHistory(lines); socket.close(); }
        });
        socket.addEventListener("close", () => {
          if (s.probe === socket) s.probe = null;
          if (retained.dataset.state === "loading") showRetained(undefined, "closed");
        });
      }
      function showRetained(message, code) {
        const el = $("inspect-retained");
        el.dataset.state = message ? "value" : "none";
        el.textContent = message ? shown(JSON.stringify(message.value, null, 2))
          : code ? "Cannot read it: " + code : "None.";
      }
      function showHistory(lines) {
        $("inspect-history-note").textContent = lines.length ? "" : "No values in history.";
        $("inspect-history").replaceChildren(...lines.map((line) => {
          const row = document.createElement("li"), pos = document.createElement("span");
          const value = document.createElement("span");
          row.dataset.pos = line.pos === undefined ? "" : String(line.pos);
          pos.className = "name"; pos.textContent = row.dataset.pos;
          value.className = "value"; value.textContent = shown(line.value);
          row.append(pos, value);
          return row;
        }));
      }

      $("inspect-close").addEventListener("click", () => {
        $("inspector").hidden = true;
        if (s.probe) { s.probe.close(); s.probe = null; }
      });
      $("inspect-clear").addEventListener("click", () => {
        const name = $("inspector").dataset.stream, result = $("inspect-result");
        const sent = send({ op: "clear", stream: name }, (reply) => {
          if (!reply.ok) {
            const error = reply.error || {};
            result.dataset.outcome = error.code || "error";
            result.textContent = error.code === "forbidden" ? "This user may not clear " + name + "."
              : (error.code || "error") + (error.message ? ": " + error.message : "");
            // Asking again would meet the same rule: the button stays off until re-inspected.
            if (error.code === "forbidden" || error.code === "read_only") $("inspect-clear").disabled = true;
            return;
          }
          result.dataset.outcome = reply.cleared ? "cleared" : "nothing";
          result.textContent = reply.cleared ? "Cleared." : "It had no retained value.";
          readTopic(name);
        });
        if (!sent) result.textContent = "Not connected.";
      });

    """#
}
