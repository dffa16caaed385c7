// Paging back: what a refresh costs when some apps are far behind (issue 48). N apps against the local fake GitHub
// at 100 ms latency, every release made up here (no upstream text):
//   node --import tsx bench/refresh-behind.mjs [--apps 1000] [--behind 45] [--share 0.05] [--latency 100]
// A `share` of the apps published `behind` releases since the version published before (one of them breaking, on
// the second page); the others are up to date. Prints requests, GraphQL pages and points, apps that paged, gaps,
// wall time, and checks that every app far behind crossed all its releases (no gap, the breaking one judged).
import { startFakeGitHub } from '../__tests__/support/fake-github.ts'
import { refreshFromGitHub } from '../src/upstream/github/refresh.ts'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : dflt
}
const APPS = opt('apps', 1000)
const BEHIND = opt('behind', 45)
const SHARE = opt('share', 0.05)
const LATENCY = opt('latency', 100)
const TOKEN = 'bench-token'

const day = (n) => new Date(Date.UTC(2026, 0, 1 + n, 12)).toISOString()
const FIX = (n) => `## Bug fixes\n\n- The list keeps its order after a reload (made-up note ${n})`
const BREAKING = '## Breaking changes\n\n- The `DEMO_LISTEN` setting was removed. You must set `DEMO_PORT` instead.'

const repos = []
const targets = []
const far = new Set()
for (let i = 0; i < APPS; i++) {
  const behind = i % Math.round(1 / SHARE) === 0 ? BEHIND : 1
  if (behind === BEHIND) far.add(`app-${i}`)
  // v1.0.0 (published before), 5 older ones below it, then `behind` newer ones.
  const releases = []
  for (let k = -5; k <= behind; k++) {
    const tagName = k < 0 ? `v0.${k + 10}.0` : `v1.${k}.0`
    releases.push({ tagName, createdAt: day(k + 10), body: k === 7 ? BREAKING : FIX(k) })
  }
  repos.push({ owner: `bench-${i}`, name: 'app', releases })
  targets.push({ slug: `app-${i}`, repo: `bench-${i}/app`, previousVersion: 'v1.0.0' })
}

const fake = await startFakeGitHub({ repos, latencyMs: LATENCY, token: TOKEN })
const start = Date.now()
const { outcomes, stats } = await refreshFromGitHub(targets, {
  token: TOKEN,
  apiUrl: fake.apiUrl,
  graphqlUrl: fake.graphqlUrl,
  now: new Date('2026-03-01T00:00:00Z'),
  log: { info() {}, warning: (m) => console.log(`  warning: ${m}`), error: (m) => console.log(`  error: ${m}`) }
})
const ms = Date.now() - start
await fake.close()

let wrong = 0
for (const [slug, o] of outcomes) {
  const want = far.has(slug) ? BEHIND : 1
  if (o.status !== 'fresh' || o.facts.crossed.length !== want || o.facts.gap) wrong++
}
console.log(
  `${APPS} apps, ${far.size} of them ${BEHIND} releases behind: ${stats.requests} requests ` +
    `(${stats.batches} batches + ${stats.olderPages} pages of older releases for ${stats.pagedApps} apps), ` +
    `${stats.graphqlPoints} GraphQL points, ${stats.gaps} gaps, ${ms} ms; ${wrong} apps not fully crossed; ` +
    `invalid queries: ${fake.invalid.length}`
)
