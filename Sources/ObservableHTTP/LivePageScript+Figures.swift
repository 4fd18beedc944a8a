extension LivePage {
  /// The figures from `stats`: the headline ones, a minute of rates drawn on canvases, and a
  /// table of every figure the server sends (the `cluster` object's too), so the page shows
  /// whatever `stats` gains without a change here.
  static let figuresScript = #"""
      const CHART_POINTS = 60;
      const charts = { published: [], delivered: [], "bytes-out": [] };

      function figure(name, value, text) {
        const el = document.querySelector('[data-figure="' + name + '"]');
        el.dataset.value = String(value); el.textContent = text;
      }
      function rateText(value) { return value < 10 ? value.toFixed(1) : String(Math.round(value)); }
      function duration(seconds) {
        const days = Math.floor(seconds / 86400), hours = Math.floor((seconds % 86400) / 3600);
        const minutes = Math.floor((seconds % 3600) / 60);
        if (days) return days + " d " + hours + " h";
        if (hours) return hours + " h " + minutes + " min";
        return minutes ? minutes + " min " + (seconds % 60) + " s" : seconds + " s";
      }

      function updateFigures(stats) {
        const now = performance.now(), last = s.lastStats;
        figure("uptime", stats.uptime_s, duration(stats.uptime_s));
        figure("connections", stats.connections, String(stats.connections));
        figure("subscriptions", stats.subscriptions, String(stats.subscriptions));
        figure("bytes-out", stats.bytes_out, bytes(stats.bytes_out));
        figure("dropped", stats.dropped_total, String(stats.dropped_total));
        figure("slow-consumers", stats.slow_consumers_total, String(stats.slow_consumers_total));
        figure("retained-bytes", stats.retained_bytes, bytes(stats.retained_bytes));
        const cluster = stats.cluster;
        figure("cluster", cluster ? (cluster.connected ? 1 : 0) : -1,
          cluster ? (cluster.connected ? "connected" : "disconnected") : "off");
        if (last && now > last.at) {
          const seconds = (now - last.at) / 1000;
          // A restarted server's counters start again from zero: no negative rates.
          const rate = (key) => Math.max(0, (stats[key] - last.stats[key]) / seconds);
          const published = rate("published_total"), delivered = rate("delivered_total");
          figure("rate", Math.round(published), rateText(published));
          figure("delivered-rate", Math.round(delivered), rateText(delivered));
          plot("published", published, rateText);
          plot("delivered", delivered, rateText);
          plot("bytes-out", rate("bytes_out"), (value) => bytes(Math.round(value)) + "/s");
        }
        s.lastStats = { at: now, stats };
        renderAllFigures(stats);
      }

      function plot(name, value, label) {
        const points = charts[name];
        points.push(value);
        if (points.length > CHART_POINTS) points.shift();
        const canvas = document.querySelector('canvas[data-chart="' + name + '"]');
        canvas.dataset.points = String(points.length);
        canvas.title = "now " + label(value);
        const context = canvas.getContext("2d");
        if (!context) return;
        const width = canvas.width, height = canvas.height, top = Math.max(1, ...points);
        context.clearRect(0, 0, width, height);
        context.strokeStyle = "#0b5cad"; context.lineWidth = 2;
        context.beginPath();
        points.forEach((point, index) => {
          const x = width - (points.length - 1 - index) * (width / (CHART_POINTS - 1));
          const y = height - 2 - (point / top) * (height - 4);
          if (index) context.lineTo(x, y); else context.moveTo(x, y);
        });
        context.stroke();
      }

      function renderAllFigures(stats) {
        const rows = [];
        const add = (prefix, object) => {
          for (const [key, value] of Object.entries(object)) {
            if (value && typeof value === "object") add(prefix + key + ".", value);
            else rows.push([prefix + key, value]);
          }
        };
        add("", stats);
        $("all-figures").querySelector("tbody").replaceChildren(...rows.map(([key, value]) => {
          const row = document.createElement("tr");
          const name = document.createElement("td"), cell = document.createElement("td");
          row.dataset.stat = key; row.dataset.value = String(value);
          name.textContent = key; cell.textContent = String(value);
          row.append(name, cell);
          return row;
        }));
      }

    """#
}
