// Refresh benchmark: N apps against the local fake GitHub at 100 ms latency.
//   node --import tsx bench/refresh.mjs [--apps 1000] [--latency 100] [--fault-rate 0.2] [--seed 7]
//        [--batch 50] [--concurrency 4] [--fast-backoff]
// Run 1 (no faults): requests per app, GraphQL points, wall time.
// Run 2 (injected faults: 502, 500, 403 secondary with retry-after: 1, connection reset):
//   apps fresh / stale / lost. Every fresh app's version is checked against its newest
//   stable tag, computed here independently of src/util/versions.ts.
// Targets: <= 0.02 requests per app, <= 5 s wall time, 0 lost, 0 wrong versions.
// Backoff runs in real time (1 s units) unless --fast-backoff.
import { randomFaults, realReleaseSeries, startFakeGitHub } from '../__tests__/support/fake-github.ts'
import { refreshFromGitHub } from '../src/upstream/github/refresh.ts'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : dflt
}
const APPS = opt('apps', 1000)
const LATENCY = opt('latency', 100)
const FAULT_RATE = opt('fault-rate', 0.2)
const SEED = opt('seed', 7)
const BATCH = opt('batch', 50)
const CONCURRENCY = opt('concurrency', 4)
const FAST = args.includes('--fast-backoff')

// Real release series (tags, dates, notes) of 7 self-hosted apps, read in place from the shared data set.
const seriesList = [...realReleaseSeries().entries()]

// Independent of src/util/versions.ts on purpose: numbers after the prefix, `-` means prerelease.
function nums(tag, prefix = '') {
  const core = tag.slice(prefix.length).replace(/^v/, '')
  if (!/^\d+(\.\d+)*$/.test(core)) return null
  return core.split('.').map(Number)
}
function cmp(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d) return d
  }
  return 0
}
function newestStableTag(tags, prefix = '') {
  let best = null
  for (const t of tags) {
    if (!t.startsWith(prefix)) continue
    const n = nums(t, prefix)
    if (n && (best === null || cmp(n, best.n) > 0)) best = { t, n }
  }
  return best?.t ?? null
}

function buildModel(n) {
  const repos = []
  const renames = {}
  const targets = []
  const expected = new Map()
  for (let i = 0; i < n; i++) {
    const [realRepo, list] = seriesList[i % seriesList.length]
    const releases = list
    const owner = `bench-${i}`
    const name = realRepo.split('/')[1]
    const slug = `app-${i}`
    const kind = i % 10
    const repo = { owner, name, releases: [], tags: [] }
    const target = { slug, repo: `${owner}/${name}` }
    let prefix = ''
    if (kind === 5) {
      // No releases at all: tags only.
      repo.tags = releases.map((r) => ({ name: r.tag, date: r.createdAt }))
    } else if (kind === 7) {
      // Monorepo: this app's tags carry `server@`, another package's interleave.
      prefix = 'server@'
      target.tagPrefix = prefix
      for (const r of releases) {
        const v = r.tag.replace(/^v/, '')
        repo.releases.push({ tagName: `server@${v}`, createdAt: r.createdAt, body: r.notes })
        repo.releases.push({ tagName: `web@${v}.1`, createdAt: r.createdAt.replace('T12', 'T13'), body: 'web package' })
      }
    } else {
      repo.releases = releases.map((r) => ({
        tagName: r.tag,
        createdAt: r.createdAt,
        body: r.notes,
        prerelease: /-/.test(r.tag)
      }))
    }
    if (kind === 3) {
      // Newer prerelease (flagged), newer prerelease-looking tag (not flagged), and a draft.
      repo.releases.push({ tagName: 'v99.0.0-rc.1', createdAt: '2026-11-01T00:00:00Z', prerelease: true, body: 'rc' })
      repo.releases.push({ tagName: 'v98.0.0-beta.2', createdAt: '2026-11-02T00:00:00Z', body: 'beta, not flagged' })
      repo.releases.push({ tagName: 'v97.0.0', createdAt: '2026-11-03T00:00:00Z', draft: true, body: 'draft' })
    }
    if (i % 50 === 9) repo.archived = true
    if (i % 100 === 11) {
      renames[`${owner}/${name}`] = `${owner}-moved/${name}`
      repo.owner = `${owner}-moved`
    }
    if (kind % 2 === 0) {
      // Half the apps were published before: crossed starts above the third newest stable.
      const stable = releases
        .map((r) => r.tag)
        .filter((t) => nums(t) !== null)
        .sort((a, b) => cmp(nums(b), nums(a)))
      if (stable[2]) target.previousVersion = prefix ? `${prefix}${stable[2].replace(/^v/, '')}` : stable[2]
    }
    const allTags =
      kind === 5
        ? repo.tags.map((t) => t.name)
        : repo.releases.filter((r) => !r.draft && !r.prerelease).map((r) => r.tagName)
    expected.set(
      slug,
      newestStableTag(
        allTags.filter((t) => !/-/.test(t)),
        prefix
      )
    )
    repos.push(repo)
    targets.push(target)
  }
  return { repos, renames, targets, expected }
}

const quiet = {
  info() {},
  warning(m) {
    console.log(`  warning: ${m}`)
  },
  error(m) {
    console.log(`  error: ${m}`)
  }
}

async function run(label, faultRate) {
  const { repos, renames, targets, expected } = buildModel(APPS)
  const fake = await startFakeGitHub({
    repos,
    renames,
    latencyMs: LATENCY,
    token: 'bench-token',
    fault: faultRate > 0 ? randomFaults(faultRate, SEED) : undefined
  })
  const timing = FAST ? { retry: { baseMs: 50 }, throttle: { baseMs: 50 } } : {}
  const t0 = performance.now()
  const { outcomes, stats } = await refreshFromGitHub(targets, {
    token: 'bench-token',
    apiUrl: fake.apiUrl,
    graphqlUrl: fake.graphqlUrl,
    now: new Date(),
    log: quiet,
    batchSize: BATCH,
    concurrency: CONCURRENCY,
    ...timing
  })
  const wall = (performance.now() - t0) / 1000
  await fake.close()

  const byStatus = {}
  let fresh = 0
  let stale = 0
  let lost = 0
  let wrong = 0
  let crossed = 0
  for (const t of targets) {
    const o = outcomes.get(t.slug)
    if (!o) {
      lost++
      continue
    }
    byStatus[o.status] = (byStatus[o.status] ?? 0) + 1
    const facts = o.status === 'fresh' || o.status === 'moved' ? o.facts : null
    if (facts) {
      fresh++
      crossed += facts.crossed.length
      if (facts.version !== expected.get(t.slug)) {
        wrong++
        if (wrong <= 5) console.log(`  wrong version for ${t.slug}: ${facts.version}, expected ${expected.get(t.slug)}`)
      }
    } else stale++
  }
  console.log(
    `${label}: ${APPS} apps, latency ${LATENCY} ms, fault rate ${faultRate}, batch ${BATCH}, concurrency ${CONCURRENCY}${FAST ? ', fast backoff (50 ms units)' : ', real-time backoff'}`
  )
  console.log(
    `  requests          ${stats.requests} (${(stats.requests / APPS).toFixed(4)} per app; server saw ${fake.counts.total}: ${fake.counts.graphql} GraphQL, ${fake.counts.rest} REST, ${fake.counts.faults} faulted)`
  )
  console.log(
    `  GraphQL points    ${stats.graphqlPoints} (remaining ${stats.remaining}), batches ${stats.batches}, REST fallbacks ${stats.restFallbacks ?? 0}`
  )
  console.log(`  wall time         ${wall.toFixed(2)} s`)
  console.log(`  outcomes          ${JSON.stringify(byStatus)}; crossed releases ${crossed}`)
  console.log(
    `  apps fresh ${fresh} / stale ${stale} / lost ${lost}; wrong versions ${wrong}; invalid queries ${fake.invalid.length}`
  )
  return { perApp: stats.requests / APPS, wall, lost, wrong, invalid: fake.invalid.length }
}

const clean = await run('clean run', 0)
const faulty = await run('faulty run', FAULT_RATE)
const ok =
  clean.perApp <= 0.02 &&
  clean.wall <= 5 &&
  clean.lost === 0 &&
  clean.wrong === 0 &&
  faulty.lost === 0 &&
  faulty.wrong === 0 &&
  clean.invalid === 0 &&
  faulty.invalid === 0
console.log(`targets (<= 0.02 requests/app, <= 5 s, 0 lost, 0 wrong versions): ${ok ? 'met' : 'NOT met'}`)
process.exitCode = ok ? 0 : 1
