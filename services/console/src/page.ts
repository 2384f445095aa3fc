// The console's page and style sheet. They live in TypeScript so that `tsc -b` puts them in
// dist/ beside the compiled scripts (the image copies each workspace's dist/ only).

/** The page at `/`. Scripts and styles come from /console/ (same origin, no CDN, no inline code). */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>gitdex</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%230550ae'/%3E%3Cpath d='M4 4h5l3 3v5H4z' fill='%23fff'/%3E%3C/svg%3E">
<link rel="stylesheet" href="console/console.css">
<script type="module" src="console/main.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <p class="brand"><span class="logo" aria-hidden="true"></span>gitdex <span class="muted">console</span></p>
  <form id="token-form" class="token" autocomplete="off">
    <label for="token">Reader token</label>
    <input id="token" name="token" type="password" spellcheck="false" autocomplete="off" aria-describedby="token-state">
    <button type="submit" class="button">Use token</button>
    <button type="button" class="button" id="token-forget">Forget</button>
    <span id="token-state" class="muted"></span>
  </form>
  <div id="sign-in" class="token" hidden>
    <button type="button" class="button" id="sign-in-button">Sign in with GitHub</button>
    <span id="signed-in" class="muted" aria-live="polite"></span>
    <button type="button" class="button" id="sign-out" hidden>Sign out</button>
  </div>
</header>
<main id="main" tabindex="-1">
  <h1 class="visually-hidden">gitdex console</h1>
  <p id="boot" class="muted">Loading the console… If this stays, the console's scripts did not load: build gitdex (npm run build) and reload.</p>
  <noscript><p>The gitdex console needs JavaScript. The REST API it uses is described at <a href="v1/openapi.json">v1/openapi.json</a>.</p></noscript>
  <div id="alert" class="alert" role="alert" hidden></div>
  <section id="repositories" aria-labelledby="repositories-heading">
    <div class="section-head">
      <h2 id="repositories-heading">Repositories</h2>
      <p id="updated" class="muted"></p>
    </div>
    <p id="repo-summary" class="muted"></p>
    <div class="table-wrap">
      <table id="repo-table" class="repos">
        <caption class="visually-hidden">Indexed repositories: commit, freshness and failures. Updated every 2 seconds.</caption>
        <thead>
          <tr><th scope="col">Repository</th><th scope="col">Status</th><th scope="col">Commit</th><th scope="col" class="num">Files</th><th scope="col">Indexed</th><th scope="col">Pending</th><th scope="col">Last error</th></tr>
        </thead>
        <tbody id="repo-rows"></tbody>
      </table>
    </div>
  </section>
  <section id="search" aria-labelledby="search-heading">
    <h2 id="search-heading">Search code</h2>
    <form id="search-form" class="path-form" role="search" autocomplete="off">
      <label for="search-query">Find</label>
      <input id="search-query" name="q" type="search" spellcheck="false" autocapitalize="off" placeholder="retryAfterMs">
      <input id="search-regex" type="checkbox"><label for="search-regex">regex (RE2)</label>
      <label for="search-scope">in</label>
      <input id="search-scope" name="repositories" type="text" spellcheck="false" autocapitalize="off" placeholder="every repository (or owner/name, owner/*)">
      <label for="search-path">files</label>
      <input id="search-path" name="path" type="text" spellcheck="false" autocapitalize="off" placeholder="src/**/*.ts">
      <button type="submit" class="button">Search</button>
    </form>
    <div id="search-results" class="search-results"></div>
  </section>
  <section id="browser" aria-labelledby="browser-heading" hidden>
    <div class="section-head">
      <h2 id="browser-heading" tabindex="-1"></h2>
      <p id="browser-meta" class="muted"></p>
    </div>
    <div id="browser-notice" class="notice" role="status" hidden></div>
    <form id="path-form" class="path-form" role="search" autocomplete="off">
      <label for="path">Go to path</label>
      <div class="combo">
        <input id="path" name="path" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="path-suggestions" aria-describedby="path-hint" spellcheck="false" autocomplete="off" autocapitalize="off" placeholder="src/index.ts">
        <ul id="path-suggestions" role="listbox" aria-label="Path suggestions" hidden></ul>
      </div>
      <button type="submit" class="button">Open</button>
      <p id="path-hint" class="muted hint">Suggestions as you type: ↑ ↓ to choose, Enter to open, Esc to close.</p>
      <p id="path-status" class="visually-hidden" role="status" aria-live="polite"></p>
    </form>
    <nav id="breadcrumbs" class="breadcrumbs" aria-label="Breadcrumb"></nav>
    <div id="view" class="view"></div>
  </section>
</main>
<p id="live" class="visually-hidden" role="status" aria-live="polite"></p>
</body>
</html>
`;

/** Shown at `/` when the scripts were not compiled (dist/public is missing). */
export const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>gitdex console</title></head>
<body><main><h1>gitdex console</h1><p>The console's scripts are not built. Run <code>npm run build</code> and restart gitdex.
The REST API answers at <a href="v1/openapi.json">v1/openapi.json</a>.</p></main></body></html>
`;

/**
 * Colours are GitHub Primer's, chosen for contrast: text on its background is at least
 * 4.5:1 (WCAG AA) in both schemes, badges included.
 */
export const CONSOLE_CSS = `:root {
  --bg: #ffffff; --bg-subtle: #f6f8fa; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --link: #0550ae; --focus: #0969da; --row-hover: #f6f8fa; --selected: #ddf4ff; --flash: #fff8c5;
  --ok-fg: #116329; --ok-bg: #dafbe1; --info-fg: #0550ae; --info-bg: #ddf4ff;
  --bad-fg: #a40e26; --bad-bg: #ffebe9; --warn-fg: #7d4e00; --warn-bg: #fff8c5; --neutral-fg: #424a53; --neutral-bg: #eff2f5;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --bg-subtle: #151b23; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
    --link: #4493f8; --focus: #4493f8; --row-hover: #151b23; --selected: #0d2240; --flash: #2e2500;
    --ok-fg: #3fb950; --ok-bg: #12261e; --info-fg: #58a6ff; --info-bg: #0c2d6b;
    --bad-fg: #ff7b72; --bad-bg: #2d1214; --warn-fg: #d29922; --warn-bg: #2e2500; --neutral-fg: #c9d1d9; --neutral-bg: #262c36;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { font-size: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 0.9375rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
#main:focus, h2:focus, h3:focus { outline: none; }
#main:focus-visible, h2:focus-visible, h3:focus-visible { outline: 3px solid var(--focus); }
code, .sha, input#path { font-family: var(--mono); font-size: 0.875em; }
.muted { color: var(--muted); }
.error-text { color: var(--bad-fg); }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip { position: absolute; left: 0.5rem; top: -3rem; background: var(--bg); padding: 0.5rem 0.75rem; z-index: 10; }
.skip:focus { top: 0.5rem; }

.top { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; padding: 0.625rem 1.25rem; border-bottom: 1px solid var(--border); background: var(--bg-subtle); }
.brand { margin: 0; font-weight: 600; font-size: 1.125rem; display: flex; align-items: center; gap: 0.5rem; }
.brand .muted { font-weight: 400; }
.logo { width: 1.125rem; height: 1.125rem; border-radius: 4px; background: var(--link); display: inline-block; }
.token { display: flex; flex-wrap: wrap; align-items: center; gap: 0.375rem 0.5rem; }
.token label { font-weight: 600; }
.token input { width: 14rem; }
input { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 6px; padding: 0.3125rem 0.5rem; }
input:disabled { opacity: 0.6; }
.button { font: inherit; font-size: 0.875rem; font-weight: 600; color: var(--fg); background: var(--bg-subtle); border: 1px solid var(--muted); border-radius: 6px; padding: 0.3125rem 0.75rem; cursor: pointer; }
.button:hover:not(:disabled) { background: var(--border); }
.button:disabled { opacity: 0.6; cursor: default; }

main { padding: 0.5rem 1.25rem 3rem; max-width: 90rem; margin: 0 auto; }
section { margin-top: 1.25rem; }
.section-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 1rem; }
h2 { font-size: 1.25rem; margin: 0; }
h3 { font-size: 1.0625rem; margin: 0; }
#updated, #browser-meta { margin: 0; font-size: 0.875rem; }
.live-dot { display: inline-block; width: 0.5rem; height: 0.5rem; border-radius: 50%; background: var(--ok-fg); margin-right: 0.375rem; vertical-align: 0.05em; }
@media (prefers-reduced-motion: no-preference) { .live-dot { animation: pulse 2s ease-in-out infinite; } }
@keyframes pulse { 50% { opacity: 0.35; } }

.alert { margin: 1rem 0; padding: 0.75rem 1rem; border: 1px solid var(--bad-fg); border-left-width: 4px; border-radius: 6px; background: var(--bad-bg); color: var(--fg); }
.alert strong { color: var(--bad-fg); }
.notice { margin: 0.75rem 0; padding: 0.5rem 0.75rem; border: 1px solid var(--warn-fg); border-left-width: 4px; border-radius: 6px; background: var(--warn-bg); display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.note { padding: 0.5rem 0.75rem; border-left: 4px solid var(--info-fg); background: var(--info-bg); border-radius: 4px; }

.table-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; margin-top: 0.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.375rem 0.75rem; border-bottom: 1px solid var(--border); vertical-align: top; }
thead th { background: var(--bg-subtle); font-size: 0.8125rem; font-weight: 600; color: var(--muted); white-space: nowrap; }
tbody tr:last-child > * { border-bottom: 0; }
tbody tr:hover { background: var(--row-hover); }
.num { text-align: right; white-space: nowrap; }
.repos th[scope="row"] { font-weight: 600; white-space: nowrap; }
.repos td:last-child { max-width: 32rem; overflow-wrap: anywhere; }
.repos tr.selected { background: var(--selected); }
.repos tr.changed > * { background: var(--flash); }
.ref { font-size: 0.8125rem; }

.status, .badge { display: inline-block; font-size: 0.75rem; font-weight: 600; line-height: 1.4; padding: 0.0625rem 0.5rem; border-radius: 2em; white-space: nowrap; border: 1px solid transparent; }
.badge { background: var(--neutral-bg); color: var(--neutral-fg); margin-left: 0.375rem; font-weight: 500; }
.status-ready { background: var(--ok-bg); color: var(--ok-fg); border-color: var(--ok-fg); }
.status-indexing { background: var(--info-bg); color: var(--info-fg); border-color: var(--info-fg); }
.status-failed { background: var(--bad-bg); color: var(--bad-fg); border-color: var(--bad-fg); }
.status-not_indexed, .status-unknown { background: var(--neutral-bg); color: var(--neutral-fg); border-color: var(--neutral-fg); }
.badge-new { background: var(--warn-bg); color: var(--warn-fg); border-color: var(--warn-fg); }
.badge-pending { background: var(--info-bg); color: var(--info-fg); margin-left: 0; }

.path-form { display: flex; flex-wrap: wrap; align-items: center; gap: 0.375rem 0.5rem; margin: 0.75rem 0 0.25rem; }
.path-form label { font-weight: 600; }
.search-file h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.search-file ol.hits { list-style: none; margin: 0; padding: 0; }
.search-file .hit-line { display: block; text-decoration: none; white-space: pre; overflow-x: auto; }
.search-file .ln { display: inline-block; min-width: 3.5em; text-align: right; opacity: 0.7; }
.search-file .kind, .outline .kind { font-size: 0.75rem; color: var(--muted); }
.outline { margin: 0 0 0.5rem; font-size: 0.875rem; }
.outline ul { list-style: none; margin: 0; padding-left: 1rem; }
.outline .outline-item { text-decoration: none; }
.outline .ln { color: var(--muted); font-size: 0.75rem; }
tr.hit td { background: #fff3b0; }
.combo { position: relative; flex: 1 1 20rem; max-width: 40rem; }
.combo input { width: 100%; }
.hint { flex-basis: 100%; margin: 0; font-size: 0.8125rem; }
[role="listbox"] { position: absolute; z-index: 5; left: 0; right: 0; top: calc(100% + 2px); margin: 0; padding: 0.25rem 0; list-style: none; background: var(--bg); border: 1px solid var(--muted); border-radius: 6px; box-shadow: 0 8px 24px rgb(0 0 0 / 0.2); max-height: 20rem; overflow-y: auto; }
[role="option"] { display: flex; justify-content: space-between; gap: 1rem; padding: 0.25rem 0.75rem; cursor: pointer; font-family: var(--mono); font-size: 0.875rem; }
[role="option"]:hover { background: var(--row-hover); }
[role="option"][aria-selected="true"] { background: var(--selected); outline: 2px solid var(--focus); outline-offset: -2px; }
.option-path { overflow-wrap: anywhere; }
.option-reason { color: var(--muted); font-family: system-ui, sans-serif; font-size: 0.75rem; white-space: nowrap; }

.breadcrumbs ol { list-style: none; display: flex; flex-wrap: wrap; padding: 0; margin: 0.75rem 0 0.5rem; font-family: var(--mono); font-size: 0.875rem; }
.breadcrumbs li + li::before { content: "/"; color: var(--muted); padding: 0 0.375rem; }
.breadcrumbs a[aria-current="page"] { color: var(--fg); font-weight: 600; text-decoration: none; }

.tree a.entry { font-family: var(--mono); font-size: 0.875rem; }
.tree a.folder { font-weight: 600; }
.tree td:first-child { width: 60%; overflow-wrap: anywhere; }
.tree-footer p, .code-footer p { margin: 0.5rem 0; font-size: 0.875rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; }

.file-head { margin-top: 0.5rem; }
.file-head .meta { margin: 0.25rem 0 0.5rem; font-size: 0.875rem; color: var(--muted); }
.file-head .meta .button { margin-left: 0.25rem; }
.code-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; }
table.code { width: auto; min-width: 100%; font-family: var(--mono); font-size: 0.8125rem; line-height: 1.5; tab-size: 4; }
table.code td { border: 0; padding: 0 0.75rem; }
table.code tr:hover { background: var(--row-hover); }
table.code td.ln { text-align: right; color: var(--muted); user-select: none; -webkit-user-select: none; width: 1%; white-space: nowrap; border-right: 1px solid var(--border); background: var(--bg-subtle); }
table.code td.line { white-space: pre; }
table.code code { font-size: inherit; }
table.code tr:target { background: var(--flash); }

.commits { margin-top: 1rem; font-size: 0.875rem; }
.commits summary { font-weight: 600; cursor: pointer; }
.commit-list { list-style: none; margin: 0.5rem 0 0; padding: 0; border: 1px solid var(--border); border-radius: 6px; }
.commit-list li { padding: 0.375rem 0.75rem; border-bottom: 1px solid var(--border); overflow-wrap: anywhere; }
.commit-list li:last-child { border-bottom: 0; }
.commit-summary { font-weight: 600; }
.commits-footer p { margin: 0.5rem 0; display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; }
table.code td.blame, table.code th.blame { display: none; }
table.code.blamed th.blame { display: table-cell; }
table.code.blamed td.blame { display: table-cell; max-width: 24rem; min-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: system-ui, sans-serif; font-size: 0.75rem; color: var(--muted); border-right: 1px solid var(--border); background: var(--bg-subtle); }
table.code.blamed tr:has(td.blame-start) > td { border-top: 1px solid var(--border); }
table.code.blamed tr:first-child > td { border-top: 0; }
.blame-author { color: var(--fg); }
.blame-boundary { margin-left: 0.25rem; }
.problem { margin-top: 0.75rem; padding: 0.75rem 1rem; border: 1px solid var(--border); border-left: 4px solid var(--bad-fg); border-radius: 6px; }
.did-you-mean-label { margin: 0.5rem 0 0.25rem; font-weight: 600; }
.did-you-mean { margin: 0; padding-left: 1.25rem; font-family: var(--mono); font-size: 0.875rem; }
.problem .api-message { font-size: 0.875rem; }

@media (max-width: 40rem) {
  .top, main { padding-left: 0.75rem; padding-right: 0.75rem; }
  .token input { width: 100%; }
}
@media (forced-colors: active) {
  .status, .badge { border-color: CanvasText; }
  [role="option"][aria-selected="true"] { outline-color: Highlight; }
}
`;
