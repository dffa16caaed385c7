// A publish day at 1,000 apps (issue 57): the build the action runs, with --refresh and the model judge, against
// the local GitHub stand-in (__tests__/support/fake-github.ts) and the GitHub Models stand-in (fake-models.ts).
//   node --import tsx bench/day.mjs [--apps 1000] [--days 3] [--new-share 0.02] [--max-model-calls 100]
//        [--catalog DIR] [--latency 0]
// Day 1 is a first run (no previous snapshot): every app's history is read and judged, the model within its budget
// (the action's default, 100 calls), the rest by the rules. Each next day starts from the day before, with
// --new-share of the apps publishing a new release. The catalog is synthetic, shaped like issue 57's records (name,
// repo, images, community, categories; most with only an awesome-selfhosted-style release seed, some with none),
// unless --catalog names a catalog folder (its apps/*.yml are read; the stand-in serves each repo a release series).
// Every repository serves a real release series (7 apps' series from the shared data set, read in place, cycled).
// Prints per day: GraphQL requests per app (target about 0.02), REST calls, model calls, pending releases
// (status.json judging.pending), apps published and unknown, wall time.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import yaml from 'js-yaml'
import { realReleaseSeries, startFakeGitHub } from '../__tests__/support/fake-github.ts'
import { reader, startFakeModels } from '../__tests__/support/fake-models.ts'
import { modelAsker } from '../src/pipeline/judge-models.ts'
import { build } from '../src/pipeline/pipeline.ts'
import { refreshFromGitHub } from '../src/upstream/github/refresh.ts'
import { DEFAULT_MAX_MODEL_CALLS, DEFAULT_MODEL } from '../src/upstream/models.ts'

const args = process.argv.slice(2)
const arg = (name) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const num = (name, dflt) => (arg(name) === undefined ? dflt : Number(arg(name)))
const APPS = num('apps', 1000)
const DAYS = num('days', 3)
const NEW_SHARE = num('new-share', 0.02)
const MAX_CALLS = num('max-model-calls', DEFAULT_MAX_MODEL_CALLS)
const LATENCY = num('latency', 0)
const CATALOG = arg('catalog')
/** Releases each stand-in repository serves (the newest of its series): a history as a first run reads it. */
const SERIES_LEN = 20

const series = [...realReleaseSeries().values()].map((list) => list.slice(0, SERIES_LEN))
if (series.length === 0) throw new Error('the shared data set is missing: the stand-in has no release series to serve')

const TOKEN = 'ghs_benchdaytoken0123456789abcdef'
const CATEGORIES = ['Media Streaming', 'Automation', 'Monitoring', 'Note-taking', 'Photo Galleries', 'Wikis']
const PUBLISHERS = [
  ['lscr.io/linuxserver', 'linuxserver'],
  ['ghcr.io/home-operations', 'home-operations'],
  ['ghcr.io/hotio', 'hotio']
]

/** A synthetic record shaped like the generated ones: most with an awesome-selfhosted-style seed, a tenth with none. */
function record(i, release) {
  const slug = `app-${String(i).padStart(4, '0')}`
  const repo = `bench-${i}/${slug}`
  const lines = [`name: App ${i}`, `repo: ${repo}`, 'images:', `  - ghcr.io/bench-${i}/${slug}`]
  if (i % 3 === 0) {
    const [prefix, rule] = PUBLISHERS[i % PUBLISHERS.length]
    lines.push('community:', `  - image: ${prefix}/${slug}`, `    tags: ${rule}`)
  }
  lines.push(
    'categories:',
    `  - ${CATEGORIES[i % CATEGORIES.length]}`,
    `  - ${CATEGORIES[(i + 1) % CATEGORIES.length]}`
  )
  if (i % 10 !== 9) {
    // The list's own read: a release a little behind upstream's newest, no notes.
    lines.push(
      'release:',
      `  version: ${release.tag}`,
      `  url: https://github.com/${repo}/releases/tag/${release.tag}`,
      `  date: ${release.createdAt.slice(0, 10)}`,
      '  checked: 2026-11-20'
    )
  }
  return { slug, repo, text: `${lines.join('\n')}\n` }
}

async function catalogRecords() {
  if (CATALOG) {
    const apps = path.join(CATALOG, 'apps')
    const out = []
    for (const f of (await readdir(apps)).filter((f) => f.endsWith('.yml')).sort()) {
      const text = await readFile(path.join(apps, f), 'utf8')
      const doc = yaml.load(text)
      out.push({ slug: f.slice(0, -4), repo: doc.repo, text })
    }
    return out
  }
  return Array.from({ length: APPS }, (_, i) => {
    const list = series[i % series.length]
    return record(i, list[2] ?? list[0])
  })
}

/** The stand-in's repositories on a day: each app's series, and on days after the first a share of new releases. */
function reposOn(records, day) {
  return records.map(({ repo }, i) => {
    const [owner, name] = repo.split('/')
    const releases = series[i % series.length].map((r) => ({
      tagName: r.tag,
      createdAt: r.createdAt,
      body: r.notes,
      prerelease: r.tag.includes('-')
    }))
    // Made-up notes for the new releases; which apps publish is fixed per day.
    for (let d = 2; d <= day; d++)
      if ((i * 7919 + d * 104729) % 1000 < NEW_SHARE * 1000)
        releases.unshift({
          tagName: `v99.${d}.0`,
          createdAt: `2026-12-${String(d).padStart(2, '0')}T03:00:00Z`,
          body: `## Fixes\n- Fixed the export button on day ${d}\n- Faster start`
        })
    return { owner, name, releases }
  })
}

const quiet = {
  info() {},
  warning() {},
  error(m) {
    console.log(`  error: ${m.slice(0, 300)}`)
  }
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'updatesafe-day-'))
const records = await catalogRecords()
await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
for (const r of records) await writeFile(path.join(dir, 'catalog/apps', `${r.slug}.yml`), r.text)
const models = await startFakeModels(reader)
console.log(
  `${records.length} apps${CATALOG ? ` from ${CATALOG}` : ' (synthetic)'}, ${DAYS} days, ${NEW_SHARE * 100}% new releases a day, ` +
    `model budget ${MAX_CALLS} calls a run, GitHub latency ${LATENCY} ms`
)
let ok = true
try {
  for (let day = 1; day <= DAYS; day++) {
    const now = new Date(Date.UTC(2026, 11, day, 4, 23))
    const github = await startFakeGitHub({ token: TOKEN, repos: reposOn(records, day), latencyMs: LATENCY })
    const asked = models.requests.length
    const t0 = performance.now()
    const result = await build(
      {
        catalogDir: path.join(dir, 'catalog'),
        outDir: path.join(dir, `d${day}`),
        baseUrl: 'https://example.org',
        now,
        refresh: true,
        cwd: dir,
        ...(day > 1 ? { previousDir: path.join(dir, `d${day - 1}`) } : {})
      },
      {
        log: quiet,
        refresh: (targets) =>
          refreshFromGitHub(targets, {
            token: TOKEN,
            apiUrl: github.apiUrl,
            graphqlUrl: github.graphqlUrl,
            now,
            log: quiet,
            retry: { baseMs: 1 },
            throttle: { baseMs: 1 }
          }),
        modelJudge: modelAsker(
          {
            endpoint: models.endpoint,
            token: TOKEN,
            model: DEFAULT_MODEL,
            maxCalls: MAX_CALLS,
            timeoutMs: 60_000,
            deadlineSeconds: 600
          },
          quiet
        )
      }
    )
    const wall = (performance.now() - t0) / 1000
    await github.close()
    const status = JSON.parse(await readFile(path.join(result.outDir, 'api/v1/status.json'), 'utf8'))
    const apps = JSON.parse(await readFile(path.join(result.outDir, 'api/v1/apps.json'), 'utf8')).apps
    const unknown = apps.filter((a) => a.safeToUpdate === 'unknown').length
    const perApp = github.counts.graphql / records.length
    console.log(
      `day ${day}: GraphQL ${github.counts.graphql} (${perApp.toFixed(4)} per app), REST ${github.counts.rest}, ` +
        `model calls ${models.requests.length - asked} (judged by the model ${status.judging?.verdicts?.[`model:${DEFAULT_MODEL}`] ?? 0}, ` +
        `by the rules ${status.judging?.verdicts?.rules ?? 0}), pending ${status.judging?.pending ?? '—'}, ` +
        `published ${apps.length} (unknown ${unknown}, left out ${result.leftOut.length}), wall ${wall.toFixed(1)} s`
    )
    if (perApp > 0.025 || apps.length + result.leftOut.length !== records.length) ok = false
  }
} finally {
  await models.close()
  await rm(dir, { recursive: true, force: true })
}
console.log(
  `targets (about 0.02 GraphQL requests per app, every app published or accounted for): ${ok ? 'met' : 'NOT met'}`
)
process.exitCode = ok ? 0 : 1
