extension LivePage {
  /// The page's subscriptions: each shown as a list of its latest values, newest first; the
  /// `stats` subscription feeds the figures and is shown only when asked for.
  static let subscriptionsScript = #"""
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
        noteSeen(message);
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

    """#
}
