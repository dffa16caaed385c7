// How the index page behaves in a browser at the real catalog's size: loads `index.html` of the 1,240-app catalog
// (catalog/, built offline from the data set's notes) in headless Chromium and prints, for a desktop and for a phone
// (390 px wide, CPU slowed 4× through CDP's Emulation.setCPUThrottlingRate), the min and median over the runs of:
//   load      the load event's end, from navigation start
//   tbt       total blocking time: the sum over the main thread's long tasks (> 50 ms) of their time past 50 ms,
//             from the page's first parsed byte until a second (of the slowed clock) after the load event, read from
//             a Chromium trace
//   longest   the longest of those tasks
//   cpu, style, layout  the main thread's CPU time over that span: in all, and in style recalculation and layout
//             (thread time: on a shared machine it varies far less than the wall clock)
//   class     a click on a class filter (All → Breaking), until the next frame is drawn
//   category  choosing a category, until the next frame is drawn
//   search    one keystroke in the search box, until the next frame is drawn
//   nojs-load … nojs-layout  the same with JavaScript off
//   nojs-class  the class filter clicked with JavaScript off (CSS alone), until style and layout are done (forced:
//             with scripts off, no timer or animation frame fires in the page, not even the harness's)
// Run: node --import tsx bench/index-page.mjs [--runs 5] [--root DIR ...] [--site DIR ...] [--desktop-only]
// Each --root is another checkout's sources (e.g. the code before a change: `git archive origin/main | tar -x -C
// /tmp/old && ln -s "$PWD/node_modules" /tmp/old/`); its CLI builds the same catalog. Each --site is a built site
// as is. Without either, this checkout's sources. The sites are measured in turn within each run, so a busy
// moment of the shared machine weighs on all of them alike, and each site's figures are also printed as a ratio
// to the first one's.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sirv from 'sirv'
import { launchChromium } from '../__tests__/support/chromium.ts'
import { median } from './support/median.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt
}
const many = (name) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]] : []))
const RUNS = Number(opt('runs', '5'))
const HERE = path.resolve(import.meta.dirname, '..')
const NOTES = path.resolve(HERE, '../shared/data/release-notes/notes.jsonl')
const NOW = '2026-12-02T03:00:00.000Z'

const tmp = mkdtempSync(path.join(tmpdir(), 'updatesafe-index-page-'))
const sites = many('site').map((dir) => ({ label: dir, dir: path.resolve(dir) }))
const roots = many('root')
if (!sites.length && !roots.length) roots.push(HERE)
roots.forEach((root, i) => {
  const dir = path.join(tmp, `site-${i}`)
  // The same catalog and notes for every root: only the code that writes the page differs.
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(path.resolve(root), 'src/cli.ts'),
      'build',
      '--catalog',
      path.join(HERE, 'catalog')
    ].concat(['--out', dir, '--notes-from', NOTES, '--judge', 'rules', '--now', NOW]),
    { cwd: HERE, stdio: ['ignore', 'ignore', 'pipe'] }
  )
  sites.push({ label: path.resolve(root), dir })
})

const servers = []
for (const s of sites) {
  const files = sirv(s.dir, { dev: true, etag: false })
  const server = http.createServer((req, res) => files(req, res, () => res.writeHead(404).end()))
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
  servers.push(server)
  s.origin = `http://127.0.0.1:${server.address().port}`
}

// Time from an action to the end of the frame that shows it: a rAF callback runs before that frame's style, layout
// and paint; a task queued from it runs after them.
const TIMED = (action) =>
  `new Promise((ok) => { const t = performance.now(); (${action})(); requestAnimationFrame(() => setTimeout(() => ok(performance.now() - t), 0)) })`
const ACTIONS = {
  class: `() => document.querySelector('label[for="f-breaking"]').click()`,
  category: `() => { const g = document.getElementById('g'); g.selectedIndex = 1; g.dispatchEvent(new Event('change', { bubbles: true })) }`,
  search: `() => { const q = document.getElementById('q'); q.value += 'n'; q.dispatchEvent(new Event('input', { bubbles: true })) }`
}
const PROFILES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, rate: 1 },
  ...(args.includes('--desktop-only') ? [] : [{ name: 'phone 4x', viewport: { width: 390, height: 844 }, rate: 4 }])
]

/**
 * What the page's main thread did, from the trace (the renderer thread that parsed the page): each task's wall
 * time, and CPU times in ms. (The Long Tasks API, observed from the document's start, missed the tasks of the parser's early chunks.)
 */
function mainThread(trace, origin) {
  const events = trace.traceEvents
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url?.startsWith(origin))
  if (!parse) throw new Error('no ParseHTML of the page in the trace')
  const mine = events.filter(
    (e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.ts >= parse.ts - 1e5
  )
  // Thread time (tdur) is CPU time: on a shared machine it varies far less than the wall clock.
  const cpu = (name) => mine.filter((e) => e.name === name).reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0)
  return {
    tasks: mine.filter((e) => e.name === 'RunTask').map((e) => (e.dur ?? 0) / 1000),
    cpu: cpu('RunTask'),
    style: cpu('UpdateLayoutTree'),
    layout: cpu('Layout')
  }
}

const quiet = (page) => page.evaluate(`new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))`)

async function measure(browser, site, profile) {
  const out = {}
  for (const js of [true, false]) {
    const context = await browser.newContext({ viewport: profile.viewport, javaScriptEnabled: js })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.rate })
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] })
    // A slowed phone on a busy machine can take long: no time limit but the run's own.
    await page.goto(`${site.origin}/`, { waitUntil: 'load', timeout: 0 })
    await page.waitForTimeout(1000 * profile.rate)
    const { tasks, cpu, style, layout } = mainThread(JSON.parse((await browser.stopTracing()).toString()), site.origin)
    const pre = js ? '' : 'nojs-'
    out[`${pre}cpu`] = cpu
    out[`${pre}style`] = style
    out[`${pre}layout`] = layout
    out[`${pre}load`] = await page.evaluate(`performance.getEntriesByType('navigation')[0].loadEventEnd`)
    out[`${pre}tbt`] = tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)
    out[`${pre}longest`] = Math.max(0, ...tasks)
    if (js) {
      for (const [name, action] of Object.entries(ACTIONS)) {
        await quiet(page)
        out[name] = await page.evaluate(TIMED(action))
      }
    } else {
      // With scripts off the harness's code still runs, but no timer or frame callback: the click's style and layout
      // are forced instead.
      out['nojs-class'] = await page.evaluate(
        `(() => { const t = performance.now(); (${ACTIONS.class})(); document.documentElement.getBoundingClientRect(); return performance.now() - t })()`
      )
    }
    await context.close()
  }
  return out
}

const browser = await launchChromium()
const results = sites.map(() => PROFILES.map(() => []))
try {
  for (let r = 0; r < RUNS; r++)
    for (const [p, profile] of PROFILES.entries())
      for (const [s, site] of sites.entries()) results[s][p].push(await measure(browser, site, profile))
} finally {
  await browser.close()
  for (const server of servers) server.close()
  rmSync(tmp, { recursive: true, force: true })
}

const METRICS = ['load', 'tbt', 'longest', 'cpu', 'style', 'layout', 'class', 'category', 'search']
METRICS.push(...METRICS.slice(0, 6).map((m) => `nojs-${m}`), 'nojs-class')
const stat = (runs, m) => {
  const xs = runs.map((x) => x[m]).filter((x) => typeof x === 'number')
  return xs.length ? { min: Math.min(...xs), med: median(xs) } : null
}
for (const [p, profile] of PROFILES.entries()) {
  console.log(`\n${profile.name}, ${RUNS} runs: min / median ms`)
  for (const [s, site] of sites.entries()) {
    console.log(`  ${site.label}`)
    for (const m of METRICS) {
      const x = stat(results[s][p], m)
      const base = stat(results[0][p], m)
      if (!x) continue
      const ratio =
        s > 0 && base && base.min > 0 ? `   × ${(x.min / base.min).toFixed(2)} / ${(x.med / base.med).toFixed(2)}` : ''
      console.log(`    ${m.padEnd(10)} ${x.min.toFixed(0).padStart(6)} / ${x.med.toFixed(0).padStart(6)}${ratio}`)
    }
  }
}
