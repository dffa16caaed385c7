// CSS, JS and the icon ship as string constants: the action and CLI are single
// ncc bundles, so nothing may be read from disk at run time. The palette is
// data so a test can check every text/background pair for WCAG AA contrast.
import { CLASSES, type Classification } from '../schema/index.js'
import { paths } from './paths.js'
import { NAME_FOLDS } from './html/index-page.js'

export interface Scheme {
  bg: string
  fg: string
  muted: string
  link: string
  line: string
  panel: string
  focus: string
  /** Text and background of each class chip. */
  classes: Record<Classification, { fg: string; bg: string }>
}

export const PALETTE: { light: Scheme; dark: Scheme } = {
  light: {
    bg: '#ffffff',
    fg: '#1f2328',
    muted: '#57606a',
    link: '#0550ae',
    line: '#8c959f',
    panel: '#f6f8fa',
    focus: '#0969da',
    classes: {
      safe: { fg: '#116329', bg: '#dafbe1' },
      caution: { fg: '#6f4500', bg: '#fff1c2' },
      breaking: { fg: '#a40e26', bg: '#ffebe9' },
      unknown: { fg: '#424a53', bg: '#eaeef2' },
      unmaintained: { fg: '#6639ba', bg: '#f5eeff' }
    }
  },
  dark: {
    bg: '#0d1117',
    fg: '#e6edf3',
    muted: '#9da7b3',
    link: '#58a6ff',
    line: '#6e7681',
    panel: '#161b22',
    focus: '#58a6ff',
    classes: {
      safe: { fg: '#56d364', bg: '#0f2a19' },
      caution: { fg: '#e3b341', bg: '#2e2108' },
      breaking: { fg: '#ff8e86', bg: '#3a1518' },
      unknown: { fg: '#c9d1d9', bg: '#262c36' },
      unmaintained: { fg: '#d2a8ff', bg: '#2a1d45' }
    }
  }
}

/** Icons per class, drawn by the stylesheet before the label (hidden from screen readers: the label says it). */
export const CLASS_ICONS: Record<Classification, string> = {
  safe: '\\2713',
  caution: '!',
  breaking: '\\2715',
  unknown: '?',
  unmaintained: '\\2298'
}

function vars(s: Scheme): string {
  const classVars = CLASSES.map((c) => `--${c}:${s.classes[c].fg};--${c}-bg:${s.classes[c].bg}`).join(';')
  return `--bg:${s.bg};--fg:${s.fg};--muted:${s.muted};--link:${s.link};--line:${s.line};--panel:${s.panel};--focus:${s.focus};${classVars}`
}

const classRules = CLASSES.map(
  (c) =>
    `.k-${c}{color:var(--${c});background:var(--${c}-bg)}` +
    `.k-${c}::before{content:"${CLASS_ICONS[c]}";content:"${CLASS_ICONS[c]}"/""}` +
    // Class filter that works without JavaScript: the checked radio hides other rows and picks the status line's
    // sentence. Scoped to the radios' own fieldset and its later siblings: a :has() over all of main made the style
    // work at load about 1.4 times as long on 1,240 rows (bench/index-page.mjs).
    `.filters:has(>#f-${c}:checked)~#apps tbody tr:not([data-c=${c}]),.filters:has(>#f-${c}:checked)~#shown .n-all{display:none}` +
    `.filters:has(>#f-${c}:checked)~#shown .n-${c}{display:inline}`
).join('\n')

export const SITE_CSS = `:root{color-scheme:light dark;${vars(PALETTE.light)}}
@media (prefers-color-scheme:dark){:root{${vars(PALETTE.dark)}}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
.wrap{max-width:64rem;margin:0 auto;padding:0 1rem}
a{color:var(--link);text-underline-offset:.15em}
a:focus-visible,button:focus-visible,input:focus-visible,pre:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:2px}
.skip{position:absolute;left:-999rem;top:.5rem;background:var(--bg);padding:.5rem 1rem;z-index:1}
.skip:focus{left:.5rem}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.top{border-bottom:1px solid var(--line);background:var(--panel)}
.top .wrap{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;padding-top:.6rem;padding-bottom:.6rem}
.brand{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none}
.brand:hover{text-decoration:underline}
main.wrap{padding-top:1.25rem;padding-bottom:2rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0}
h1 .v{color:var(--muted);font-weight:400}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem}
h1,h2,p,li,td,tbody th,dd,pre{overflow-wrap:anywhere}
.lede,.muted,small{color:var(--muted)}
.prose{white-space:pre-line;max-width:60rem}
.k{display:inline-block;padding:0 .55rem;border:1px solid currentColor;border-radius:1rem;font-weight:600;white-space:nowrap}
.k::before{display:inline-block;min-width:1em;margin-right:.3em;text-align:center}
${classRules}
.filters{border:0;margin:1rem 0 .5rem;padding:0;display:flex;flex-wrap:wrap;gap:.4rem;min-width:0}
.filters legend{padding:0;margin-bottom:.35rem;font-weight:600}
.filters input{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.filters label{display:inline-block;padding:.15rem .55rem .15rem .3rem;border:1px solid var(--line);border-radius:1rem;cursor:pointer;background:var(--bg)}
.filters label b{font-weight:600}
.filters input:checked+label{background:var(--fg);color:var(--bg);border-color:var(--fg)}
.filters input:focus-visible+label{outline:3px solid var(--focus);outline-offset:2px}
.search{margin:.75rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.search span{display:flex;flex-direction:column;min-width:0;max-width:100%}
.search label{display:block;font-weight:600}
.search input,.search select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:.35rem;padding:.35rem .6rem;max-width:100%}
.search input{width:24rem}
.search select{width:auto}
.search input:focus-visible,.search select:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
table{width:100%;border-collapse:collapse;margin-top:.5rem}
th,td{text-align:left;vertical-align:top;padding:.45rem .5rem;border-bottom:1px solid var(--line)}
thead th{font-size:.9rem;color:var(--muted);border-bottom-width:2px;white-space:nowrap}
td.d{white-space:nowrap}
td.d small{display:inline}
tbody th{font-weight:400}
tbody th a{font-weight:600}
tbody small{display:block}
td.w{font-size:.9rem;max-width:22rem}
td.v{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.95rem}
#shown>span:not(.n-all){display:none}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;min-width:0}
.verdict{border:1px solid var(--line);border-left-width:.4rem;border-radius:.35rem;padding:.75rem 1rem;margin:1rem 0;background:var(--panel)}
.verdict p{margin:.4rem 0}
.verdict.c-safe{border-left-color:var(--safe)}.verdict.c-caution{border-left-color:var(--caution)}.verdict.c-breaking{border-left-color:var(--breaking)}.verdict.c-unknown{border-left-color:var(--unknown)}.verdict.c-unmaintained{border-left-color:var(--unmaintained)}
.notice{border:1px solid var(--caution);background:var(--caution-bg);color:var(--fg);border-radius:.35rem;padding:.6rem 1rem}
.eol{color:var(--breaking);font-weight:600}
ol.releases{padding-left:1.5rem}
ol.releases code,td.v,code{overflow-wrap:anywhere}
pre{background:var(--panel);border:1px solid var(--line);border-radius:.35rem;padding:.6rem .8rem;white-space:pre-wrap;margin:.5rem 0}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9rem}
button{font:inherit;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:.35rem;padding:.25rem .8rem;cursor:pointer}
.badge img{display:block;max-width:100%;height:auto;margin:.5rem 0}
footer{border-top:1px solid var(--line);color:var(--muted);font-size:.9rem;padding:1rem 0 2rem}
footer p{margin:.25rem 0}
.legend dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem}
.legend dd{margin:0}
@media (max-width:40rem){
h1{font-size:1.35rem}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
tbody tr{display:grid;grid-template-columns:1fr auto;gap:.15rem .75rem;padding:.6rem 0;border-bottom:1px solid var(--line)}
tbody th,tbody td{display:block;padding:0;border:0}
tbody th{grid-column:1/-1}
td.w,td.d{grid-column:1/-1;font-size:.9rem}
td.d{color:var(--muted)}
td.d::before{content:"Checked "}
table.upgrade td{grid-column:1/-1}
table.upgrade td::before{display:block;font-size:.85rem;color:var(--muted)}
table.upgrade td:nth-of-type(1)::before{content:"That release"}
table.upgrade td:nth-of-type(2)::before{content:"Updating from it to the latest"}
dl.facts,.legend dl{grid-template-columns:1fr;gap:0}
dl.facts dd,.legend dd{margin-bottom:.5rem}
}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
`

/** JSON with every character past ASCII escaped: site.js stays ASCII, whatever charset it is read in. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Progressive enhancement only: the page is complete without it. Adds search by
 * name, slug or repository (the class filter already works through CSS), the
 * category filter and the sort, all kept in the address so a view can be linked
 * and bookmarked (?class=breaking&category=…&q=…&sort=date), a live result
 * count, copy buttons for snippets,
 * the days left before an end of life, counted from the reader's today (a static
 * page only names the date, so it is never a count that was true on build day),
 * and on an app page a picker of the version you run for the upgrade table.
 */
export const SITE_JS = `'use strict';
(function () {
  var table = document.getElementById('apps');
  var q = document.getElementById('q');
  if (table && q && table.tBodies[0]) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var radios = Array.prototype.slice.call(document.querySelectorAll('input[name="c"]'));
    var tallies = radios.map(function (r) { return document.querySelector('label[for="' + r.id + '"] b'); });
    var cat = document.getElementById('g');
    var sort = document.getElementById('sort');
    var shown = document.getElementById('shown');
    var none = document.getElementById('none');
    var rank = { safe: 0, caution: 1, breaking: 2, unmaintained: 3, unknown: 4 };
    // Nothing is read from the rows until a control needs it: at 1,240 apps, reading every row at load was a
    // tenth of a second on a desktop, more on a phone. The class, categories and day first; the words at the first
    // search (or focus of the box) or name sort.
    var cls = null, groups = null, days = null, texts = null, keys = null;
    var facts = function () {
      if (cls) return;
      cls = []; groups = []; days = [];
      rows.forEach(function (r) {
        cls.push(r.getAttribute('data-c'));
        groups.push(' ' + (r.getAttribute('data-g') || '') + ' ');
        days.push(r.getAttribute('data-d') || '');
      });
    };
    // The server's name order (nameKey in index-page.ts): accents dropped, a few letters spelled out, so that
    // a name spelled with the micro sign sorts under U on every machine, where a collator would put it after Z.
    var folds = ${asciiJson(NAME_FOLDS)};
    var folded = new RegExp('[' + Object.keys(folds).join('') + ']', 'g');
    var nameKey = function (s) {
      if (/^[\\x00-\\x7f]*$/.test(s)) return s.toLowerCase();
      return s.normalize('NFKD').toLowerCase().replace(/\\p{M}/gu, '').replace(folded, function (c) { return folds[c]; });
    };
    var words = function () {
      if (texts) return;
      texts = []; keys = [];
      rows.forEach(function (r) {
        var a = r.cells[0].querySelector('a');
        // Search reads the name and the repository (the row heading) and the slug (the page address).
        texts.push((r.cells[0].textContent + ' ' + (a ? a.getAttribute('href') : '')).toLowerCase());
        keys.push(nameKey(a ? a.textContent : ''));
      });
    };
    var params = new URLSearchParams(location.search);
    // Only a value the page offers is taken from the address; anything else leaves the control as it was.
    var pick = function (el, v) { if (el && v !== null) Array.prototype.forEach.call(el.options, function (o) { if (o.value === v) el.value = v; }); };
    var wanted = params.get('class');
    radios.forEach(function (r) { if (wanted && r.value === wanted) r.checked = true; });
    pick(cat, params.get('category'));
    pick(sort, params.get('sort'));
    q.value = (params.get('q') || '').slice(0, 200);
    var classOf = function () { var c = ''; radios.forEach(function (r) { if (r.checked) c = r.value; }); return c; };
    var hid = rows.map(function () { return false; });
    var apply = function () {
      var c = classOf();
      var g = cat && cat.selectedIndex > 0 ? ' ' + (cat.selectedIndex - 1) + ' ' : null;
      var terms = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
      facts();
      if (terms.length) words();
      // Each class button counts the apps the category and the search leave, as "All" does.
      var counts = {};
      radios.forEach(function (r) { counts[r.value] = 0; });
      var n = 0;
      for (var i = 0; i < rows.length; i++) {
        var ok = (g === null || groups[i].indexOf(g) !== -1) && terms.every(function (t) { return texts[i].indexOf(t) !== -1; });
        if (ok) { counts['']++; counts[cls[i]]++; }
        ok = ok && (!c || cls[i] === c);
        if (ok) n++;
        // Only the rows whose state changes are written.
        if (hid[i] === ok) { hid[i] = !ok; rows[i].hidden = !ok; }
      }
      radios.forEach(function (r, k) { var t = String(counts[r.value]); if (tallies[k] && tallies[k].textContent !== t) tallies[k].textContent = t; });
      if (shown) shown.textContent = n === rows.length ? rows.length + (rows.length === 1 ? ' app' : ' apps') : 'Showing ' + n + ' of ' + rows.length + ' apps';
      if (none) none.hidden = n > 0;
    };
    var byName = function (a, b) { return keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0; };
    var sorted = false;
    var order = function () {
      var k = sort ? sort.value : '';
      // The page comes in its default order: nothing to move until another order is asked for.
      if (!k && !sorted) return;
      sorted = k !== '';
      facts();
      words();
      var idx = rows.map(function (r, i) { return i; });
      var cl = function (i) { return rank[cls[i]]; };
      // Ties keep the page's own order (judged first, then name): a stable sort on the row's first position.
      if (k === 'name') idx.sort(function (a, b) { return byName(a, b) || a - b; });
      if (k === 'class') idx.sort(function (a, b) { return cl(a) - cl(b) || byName(a, b) || a - b; });
      if (k === 'date') idx.sort(function (a, b) { var x = days[a], y = days[b]; return (x < y ? 1 : x > y ? -1 : 0) || byName(a, b) || a - b; });
      var f = document.createDocumentFragment();
      idx.forEach(function (i) { f.appendChild(rows[i]); });
      body.appendChild(f);
    };
    var link = function () {
      var p = new URLSearchParams(location.search);
      var set = function (k, v) { if (v) p.set(k, v); else p.delete(k); };
      set('class', classOf());
      set('category', cat ? cat.value : '');
      set('q', q.value.trim());
      set('sort', sort ? sort.value : '');
      var s = p.toString();
      history.replaceState(null, '', location.pathname + (s ? '?' + s : '') + location.hash);
    };
    q.addEventListener('focus', words);
    q.addEventListener('input', function () { apply(); link(); });
    radios.forEach(function (r) { r.addEventListener('change', apply); r.addEventListener('change', link); });
    if (cat) cat.addEventListener('change', function () { apply(); link(); });
    if (sort) sort.addEventListener('change', function () { order(); link(); });
    document.getElementById('search').hidden = false;
    order();
    // Unfiltered, the page as served is right (its counts, and the status line the stylesheet picks).
    if (classOf() || (cat && cat.value) || q.value) apply();
  }
  var now = new Date();
  var today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  Array.prototype.forEach.call(document.querySelectorAll('[data-until]'), function (el) {
    var at = Date.parse(el.getAttribute('data-until') + 'T00:00:00Z');
    if (isNaN(at)) return;
    var d = Math.round((at - today) / 864e5);
    var days = function (n) { return n + (n === 1 ? ' day' : ' days'); };
    el.textContent = d > 0 ? '(' + days(d) + ' remaining)' : d === 0 ? '(today)' : '(' + days(-d) + ' ago)';
  });
  var up = document.querySelector('table.upgrade');
  if (up && up.tBodies[0]) {
    var urows = Array.prototype.slice.call(up.tBodies[0].rows);
    var sel = document.createElement('select');
    sel.id = 'from-version';
    var every = document.createElement('option');
    every.value = '';
    every.textContent = 'every judged release';
    sel.appendChild(every);
    urows.forEach(function (r) {
      var o = document.createElement('option');
      o.value = o.textContent = r.getAttribute('data-v');
      sel.appendChild(o);
    });
    sel.addEventListener('change', function () {
      urows.forEach(function (r) { r.hidden = sel.value !== '' && r.getAttribute('data-v') !== sel.value; });
    });
    var label = document.createElement('label');
    label.textContent = 'The version you run: ';
    label.appendChild(sel);
    var pick = document.createElement('p');
    pick.appendChild(label);
    up.parentNode.insertBefore(pick, up);
  }
  Array.prototype.forEach.call(document.querySelectorAll('[data-copy]'), function (pre) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Copy snippet';
    // navigator.clipboard exists only in secure contexts: a LAN host on plain http has none. There the snippet is
    // selected and copied the old way, or left selected for the reader's own Ctrl+C.
    var fallback = function () {
      var range = document.createRange();
      range.selectNodeContents(pre);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      b.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C (\\u2318C on a Mac) to copy';
    };
    b.addEventListener('click', function () {
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(pre.textContent).then(function () { b.textContent = 'Copied'; }, fallback);
      else fallback();
    });
    pre.insertAdjacentElement('afterend', b);
  });
})();
`

/** Site icon, so browsers do not ask for /favicon.ico (a 404 at the site root). */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1a7f37"/><path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>
`

/** Asset files keyed by path relative to the site root. */
export const ASSETS: ReadonlyArray<readonly [string, string]> = [
  [paths.asset('site.css'), SITE_CSS],
  [paths.asset('site.js'), SITE_JS],
  [paths.asset('icon.svg'), ICON_SVG]
]
