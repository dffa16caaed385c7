// README screenshots from the demo `npm start` serves on any clone (demo/README.md): build its made-up catalog
// into a temp dir, serve it with the project's preview server, photograph it in chromium.
// Run: node --import tsx scripts/screenshots.mjs   (writes docs/screenshots/*.png)
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from '../src/pipeline/pipeline.ts'
import { createSiteHandler } from '../src/output/serve.ts'
import { launchChromium } from '../__tests__/support/chromium.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT = path.join(ROOT, 'docs', 'screenshots')
// A page with a quoted rationale and an upgrade table whose older rows cross a breaking release.
const APP = process.env.SCREENSHOT_APP ?? 'quillpad'
// Fixed, so the same catalog gives the same pictures: the build time, and the
// address shown in absolute links (the one `npm start` serves), not the random port.
const BASE_URL = 'http://localhost:8080'
const NOW = new Date('2026-12-02T12:00:00.000Z')

const SHOTS = [
  { file: 'index-desktop.png', path: '/', viewport: { width: 1280, height: 1000 }, scale: 1, fullPage: false },
  { file: 'index-320.png', path: '/', viewport: { width: 320, height: 1100 }, scale: 2, fullPage: false },
  { file: 'app-desktop.png', path: `/apps/${APP}/`, viewport: { width: 1280, height: 900 }, scale: 1, fullPage: true },
  { file: 'app-320.png', path: `/apps/${APP}/`, viewport: { width: 320, height: 1000 }, scale: 2, fullPage: false }
]

const tmp = await mkdtemp(path.join(os.tmpdir(), 'updatesafe-shots-'))
const site = path.join(tmp, 'site')
const server = http.createServer(createSiteHandler(site))
let browser
try {
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${server.address().port}`
  const log = {
    info: () => {},
    warning: (m) => console.error(`warning: ${m}`),
    error: (m) => console.error(`error: ${m}`)
  }
  // The demo as `npm start` shows it with nothing beside the clone and no token.
  await build(
    {
      catalogDir: path.join(ROOT, 'demo/catalog'),
      notesFrom: path.join(ROOT, 'demo/notes.jsonl'),
      demo: true,
      outDir: site,
      baseUrl: BASE_URL,
      now: NOW,
      cwd: ROOT
    },
    { log }
  )
  await mkdir(OUT, { recursive: true })
  browser = await launchChromium()
  for (const s of SHOTS) {
    const context = await browser.newContext({ viewport: s.viewport, deviceScaleFactor: s.scale, colorScheme: 'light' })
    const page = await context.newPage()
    const problems = []
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`))
    page.on(
      'request',
      (r) => r.url().startsWith(`${origin}/`) || problems.push(`request to another address: ${r.url()}`)
    )
    const res = await page.goto(origin + s.path, { waitUntil: 'load' })
    if (res?.status() !== 200) throw new Error(`${s.path}: HTTP ${res?.status()}`)
    if (problems.length) throw new Error(`${s.path}: ${problems.join('; ')}`)
    await page.screenshot({ path: path.join(OUT, s.file), fullPage: s.fullPage })
    await context.close()
    console.log(`wrote ${path.relative(ROOT, path.join(OUT, s.file))}`)
  }
} finally {
  await browser?.close()
  await new Promise((ok) => server.close(ok))
  await rm(tmp, { recursive: true, force: true })
}
