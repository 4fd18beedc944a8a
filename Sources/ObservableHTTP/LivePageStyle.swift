extension LivePage {
  /// The page's style: system fonts, dark text on white (contrast above 7:1), one column at
  /// phone width and two from 52rem.
  static let style = #"""
    :root { color-scheme: light; --ink: #1b1b1b; --muted: #4a4a4a; --line: #c8c8c8;
      --accent: #0b5cad; --bad: #a4161a; --ok: #1f6f2b; --soft: #f3f5f8; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
      color: var(--ink); background: #fff; }
    header { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between;
      gap: .5rem 1rem; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
    h1 { font-size: 1.25rem; margin: 0; }
    h1 span { font-weight: normal; color: var(--muted); font-size: .9rem; }
    h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
    main { display: grid; gap: 1rem; padding: 1rem; max-width: 80rem; margin: 0 auto; }
    @media (min-width: 52rem) { main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
    .panel { border: 1px solid var(--line); border-radius: .4rem; padding: .75rem 1rem;
      min-width: 0; }
    #status { margin: 0; font-weight: 600; }
    #status[data-state="open"] { color: var(--ok); }
    #status[data-state="closed"] { color: var(--bad); }
    #error { margin: 0; padding: .6rem 1rem; background: #fde8e8; color: var(--bad);
      border-bottom: 1px solid #f0b4b4; font-weight: 600; }
    .figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr));
      gap: .5rem; margin: 0; }
    .figures div { background: var(--soft); border-radius: .3rem; padding: .4rem .6rem; }
    .figures dt { color: var(--muted); font-size: .85rem; }
    .figures dd { margin: 0; font-size: 1.4rem; font-variant-numeric: tabular-nums; }
    .row { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem;
      margin: 0 0 .5rem; }
    label { font-weight: 600; min-width: 7.5rem; }
    label.inline { font-weight: normal; min-width: 0; }
    input:not([type=checkbox]) { flex: 1 1 10rem; min-width: 0; font: inherit;
      padding: .35rem .5rem; border: 1px solid #767676; border-radius: .25rem; }
    button { font: inherit; padding: .35rem .8rem; border: 1px solid var(--accent);
      border-radius: .25rem; background: var(--accent); color: #fff; cursor: pointer; }
    button.quiet { background: #fff; color: var(--accent); }
    :focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
    table { width: 100%; border-collapse: collapse; }
    th, td { text-align: left; padding: .3rem .4rem; border-bottom: 1px solid var(--line); }
    td:first-child { overflow-wrap: anywhere; }
    button { white-space: nowrap; }
    @media (max-width: 30rem) {
      main { padding: .5rem; } .panel { padding: .6rem .7rem; }
      th:nth-child(2), td:nth-child(2) { display: none; }
    }
    td:nth-child(3) { font-variant-numeric: tabular-nums; }
    .hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip: rect(0 0 0 0); }
    #subscriptions section { border-top: 1px solid var(--line); margin-top: .75rem;
      padding-top: .5rem; }
    #subscriptions h3 { display: flex; justify-content: space-between; align-items: center;
      gap: .5rem; font-size: 1rem; margin: 0 0 .3rem; overflow-wrap: anywhere; }
    ol { list-style: none; margin: 0; padding: 0; max-height: 16rem; overflow-y: auto; }
    li { display: flex; gap: .6rem; padding: .15rem 0; border-bottom: 1px dotted var(--line);
      font: .9rem/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
    li time { flex: 0 0 auto; white-space: nowrap; color: var(--muted); }
    li .name { color: var(--muted); flex: 0 0 auto; }
    li .value { overflow-wrap: anywhere; min-width: 0; }
    #publish-result { margin: .25rem 0 0; min-height: 1.4em; color: var(--muted); }
    """#
}
