extension LivePage {
  /// The streams table: what `list` answers, and the topics the page's pattern subscriptions
  /// have reached that `list` does not name (a topic that only patterns reach has no exact
  /// subscriber and no retained value, so the server keeps no entry for it).
  static let streamsScript = #"""
      const MAX_SEEN = 200;

      function noteSeen(message) {
        if (message.sub === undefined || s.seen.has(message.stream) || s.seen.size >= MAX_SEEN) return;
        s.seen.set(message.stream, message.sub);
        if (!s.listed.some((stream) => stream.name === message.stream)) renderStreams();
      }
      function streamRow(stream, via) {
        const row = document.createElement("tr");
        row.dataset.streamRow = stream.name; row.dataset.subscribers = String(stream.subscribers);
        if (via) row.dataset.viaPattern = via;
        const kind = via ? "topic, via " + via : stream.kind;
        for (const text of [stream.name, kind, String(stream.subscribers)]) {
          const cell = document.createElement("td"); cell.textContent = text; row.append(cell);
        }
        const cell = document.createElement("td"), button = document.createElement("button");
        const watching = s.subs.has(stream.name) && s.subs.get(stream.name).visible;
        button.type = "button"; button.className = "quiet"; button.disabled = watching;
        button.textContent = watching ? "Watching" : "Subscribe";
        button.setAttribute("aria-label", "Subscribe to " + stream.name);
        button.addEventListener("click", () => addSubscription(stream.name, true));
        cell.append(button);
        if (stream.kind === "topic") {
          const look = document.createElement("button");
          look.type = "button"; look.className = "quiet"; look.textContent = "Inspect";
          look.dataset.inspect = stream.name;
          look.setAttribute("aria-label", "Inspect " + stream.name);
          look.addEventListener("click", () => inspect(stream.name));
          cell.append(" ", look);
        }
        row.append(cell);
        return row;
      }
      function renderStreams() {
        const listed = new Set(s.listed.map((stream) => stream.name));
        const seen = [...s.seen].filter(([name]) => !listed.has(name)).sort();
        $("streams").tBodies[0].replaceChildren(
          ...s.listed.map((stream) => streamRow(stream)),
          ...seen.map(([name, via]) => streamRow({ name, kind: "topic", subscribers: 0 }, via)));
      }
      function refreshList() {
        send({ op: "list" }, (reply) => {
          if (failed(reply)) return;
          s.listed = reply.streams;
          renderStreams();
        });
      }

    """#
}
