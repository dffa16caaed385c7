// Generates the catalog's records (catalog/apps/<slug>.yml) from the team's shared data set:
// - apps/awesome-selfhosted.jsonl: every app with a GitHub repository, a release published since 2025-06-01 and
//   not archived gets a record; any record of a repository listed there gets its `categories` (its tags);
// - images/images.jsonl and images/more-images.jsonl: official and Docker Official (`library`) images go into
//   `images:`; every app of more-images.jsonl with a GitHub repository gets a record (its slug is given there);
// - images/community.jsonl: community builds go into `community:` with their publisher's tag rule and channel;
//   every upstream there with a GitHub repository gets a record.
// It replaces scripts/catalog-images.mjs (the images of records) and runs after scripts/catalog-from-notes.mjs,
// which seeds releases from the release-notes data set; the two keep each other's keys and comments.
//
//   node --import tsx scripts/catalog-generate.mjs            write catalog/apps/*.yml
//   node --import tsx scripts/catalog-generate.mjs --check    exit 1 if a record would change
//
// Options: --data DIR (default ../shared/data), --catalog DIR (default catalog).
//
// Rules, so that nothing is invented, nothing is lost and a rerun changes nothing:
// - One record per repository (compared case-insensitively). A record that exists keeps its slug, name, repo,
//   header comment and every fact it holds (release, lifecycle, override, tagPrefix, archived, ...); only
//   `categories`, `images` and `community` are (re)written, and only where the data set has them.
// - New slugs: more-images.jsonl's slug, else the name in lowercase a-z0-9 with hyphens; a slug taken by another
//   repository gets the owner appended, then a number. Apps are taken in a fixed order (more-images by slug,
//   awesome-selfhosted in file order, community by image), so the same data gives the same slugs.
// - release (new records only): awesome-selfhosted's `currentRelease` {tag, publishedAt} is what its metadata job
//   read from GitHub's latest-release answer, a fact about the upstream release. A record seeded with it lets an
//   offline build show a real, dated release instead of "not read yet", and `checked` says honestly how old the
//   read is: 2026-08-21, the day of the data commit read, which is also the newest `updatedAt`/`publishedAt` in
//   it (so the job ran that day). Tags that are not a stable version label (prereleases, nightly) are not seeded.
//   A refresh replaces the seed with GitHub's own answer.
// - community tag rules (src/schema/index.ts TAG_RULES, ../shared/data/images/COMMUNITY.md): the publisher's rule,
//   except `own` for tags that carry no upstream version (jlesage's calendar versions, the synthetic commit-count
//   tags of onedr0p jbops/tvheadend/rallly/udp-broadcast-relay-redux, home-operations jbops, LinuxServer's
//   commit-SHA tags); tomsquest is `revision`; xirixiz, mpepping and jacobalberty tag the upstream version
//   (xirixiz without its `v`, which version comparison ignores): `as-is`.
// - Apps without a GitHub repository (Plex, BusyBox, LinuxServer's mariadb, ...) get no record; the run lists them.
// - awesome-selfhosted's data is CC-BY-SA 3.0: every record using its facts says so in a comment.
import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import { catalogEntrySchema } from '../src/schema/index.ts'
import { isStableVersion } from '../src/util/versions.ts'

const AWESOME_READ_DAY = '2026-08-21'
const AWESOME_SINCE = '2025-06-01'
const AWESOME_CREDIT =
  'awesome-selfhosted (https://github.com/awesome-selfhosted/awesome-selfhosted-data, CC-BY-SA 3.0)'
const MAX_IMAGES = 20
const MAX_COMMUNITY = 40
const MAX_CATEGORIES = 8
const KINDS = ['official', 'library']

// Where images.jsonl's README or MORE.md calls a mapping doubtful, the record says so (our words), by slug.
const DOUBTS = {
  coturn: 'the ghcr.io image is named by its package page only',
  netbox: 'the images come from the netbox-community/netbox-docker project, not the app repository',
  haproxy: "haproxytech's images are the vendor's, not the open-source project's own",
  nextcloud: "the Docker library image is maintained by Docker's community account",
  buildbot: 'a legacy image name is listed beside the current one',
  grafana: 'a legacy image name is listed beside the current one',
  nomad: 'named only by an Enterprise demo line',
  'powerdns-authoritative':
    'the pdns-auth-master image; versioned pdns-auth-NN images are named only through a variable',
  telegraf: 'nightly images are listed too',
  'oauth2-proxy': 'nightly images are listed too',
  'home-assistant': 'the cited line names the registries only; the full name is built from them',
  spoolman: 'the cited line names the image without its registry',
  'element-web': 'named by an older stored version of a file (a legacy image)',
  'stirling-pdf': 'named by an older stored version of a file (a legacy image)',
  hasura: 'named by an older stored version of a file (an alpha-era compose file)',
  directus: 'named by an older stored version of a file (an alpha-era readme)',
  budibase: "named by an older stored version of a file; these are not today's budibase/budibase",
  trilium: 'named by the old TriliumNext/Notes repository',
  librechat: 'only the development API image is named',
  zot: 'named only in a demo recording',
  cilium: "named only in sample output in cilium/cilium-cli's README",
  icloudpd: 'named only in a CI workflow',
  'mautrix-meta': 'named only in a changelog',
  'actions-runner': 'named only in a design record',
  maubot: 'named only as a plugin CI image',
  neko: 'a legacy v2 image',
  discourse: "discourse/base is the launcher's base image, not a versioned app image"
}
// Images an app's Compose file names beside its own that follow another version stream: `check` would read their
// tags as the app's version and call `16` to `v3.1.0` a major update. Left out of `images:`, with why (our words).
const COMPONENTS = {
  'ghcr.io/immich-app/postgres': 'Postgres with vector extensions: its tags follow Postgres, not Immich',
  'langgenius/dify-sandbox': 'the code sandbox, released on its own (langgenius/dify-sandbox)',
  'langgenius/dify-plugin-daemon': 'the plugin daemon, released on its own (langgenius/dify-plugin-daemon)',
  'goharbor/registry-photon': "the Distribution registry: its tags follow the registry's version, not Harbor's",
  'powerdns/dnsdist-master': 'dnsdist, a separate product with its own versions',
  'appflowyinc/gotrue': "AppFlowy's GoTrue fork, versioned on its own",
  'drone/drone-runner-docker': 'the Docker runner, released on its own (drone/drone-runner-docker)',
  'quay.io/minio/mc': 'the MinIO client, released on its own (minio/mc)'
}
const REGISTRY_LINK_ONLY = [
  'victoriametrics',
  'freeradius',
  'commafeed',
  'coredns',
  'cryptpad',
  'mailpit',
  'snappymail',
  'vernemq'
]

// Keys a record may hold, in the order the generators write them (catalog-from-notes.mjs uses the same order).
const KEY_ORDER = [
  'name',
  'repo',
  'tagPrefix',
  'tagPattern',
  'archived',
  'successor',
  'categories',
  'images',
  'community',
  'lifecycle',
  'override',
  'release'
]

// One app under two repository names in the data set (renamed, moved, or a companion repository holding its
// images or releases): the variant -> the name its record uses (an existing record's, else the current one).
const SAME_APP = {
  'ether/etherpad': 'ether/etherpad-lite',
  'flarum/flarum': 'flarum/framework',
  'mindsdb/mindshub': 'mindsdb/mindsdb',
  'mylar3/mylar3': 'mylarcomics/mylar3',
  'octoprint/octoprint-docker': 'octoprint/octoprint',
  'tidusjar/ombi.releases': 'ombi-app/ombi',
  'gilbn/theme.park': 'themepark-dev/theme.park',
  'flomp/wanderer': 'open-wanderer/wanderer',
  'rhasspy/wyoming-faster-whisper': 'ohf-voice/wyoming-faster-whisper'
}

const readJsonl = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))

const lower = (repo) => String(repo).toLowerCase()
/** The key of an app: its repository in lower case, a variant of SAME_APP mapped to its record's name. */
const keyOf = (repo) => SAME_APP[lower(repo)] ?? lower(repo)
/** ` (listed as X)` when a source names the app's repository differently from its record. */
const listedAs = (repo, recordRepo) => (lower(repo) === lower(recordRepo) ? '' : `, listed as ${repo}`)

/** lowercase a-z0-9 words joined by single hyphens; '' when nothing is left. */
export function slugify(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\+/g, ' plus ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
}

/** The publisher's tag rule for one community.jsonl record (see the header). */
export function tagRuleOf(r) {
  const text = `${r.tags ?? ''} ${r.note ?? ''}`
  if (r.publisher === 'jlesage') return 'own'
  if (/synthetic|commit SHA \(8 chars\), no version|^no version tags/i.test(text)) return 'own'
  switch (r.publisher) {
    case 'linuxserver':
    case 'home-operations':
    case 'onedr0p':
    case 'k8s-at-home':
    case 'bjw-s':
    case 'hotio':
    case 'binhex':
      return r.publisher
    case 'tomsquest':
      return 'revision'
    case 'xirixiz':
    case 'mpepping':
    case 'jacobalberty':
      return 'as-is'
    default:
      return null
  }
}

const commit7 = (c) => String(c).slice(0, 12)

/** The records the data set gives, one per repository, before slugs are assigned. */
function collect(dataDir) {
  const awesome = readJsonl(path.join(dataDir, 'apps/awesome-selfhosted.jsonl'))
  const images = readJsonl(path.join(dataDir, 'images/images.jsonl'))
  const more = readJsonl(path.join(dataDir, 'images/more-images.jsonl'))
  const community = readJsonl(path.join(dataDir, 'images/community.jsonl'))

  const apps = new Map() // repo (lower case) -> facts
  const app = (repo) => {
    const key = keyOf(repo)
    if (!apps.has(key)) apps.set(key, { key, images: [], community: [], sources: new Set(), spellings: [] })
    apps.get(key).spellings.push(repo)
    return apps.get(key)
  }
  const notRecorded = []

  // Official images: images.jsonl first (what records have had), then more-images.jsonl.
  for (const [file, list] of [
    ['images.jsonl', images],
    ['more-images.jsonl', more]
  ]) {
    for (const r of list) {
      if (!r.repo) {
        notRecorded.push(`${r.slug} (${file}: no GitHub repository)`)
        continue
      }
      const a = app(r.repo)
      if (file === 'more-images.jsonl') {
        a.sources.add('more-images')
        a.more ??= r
      }
      if (!KINDS.includes(r.kind)) continue
      if (COMPONENTS[r.image]) {
        if (!a.components?.some((i) => i.image === r.image)) (a.components ??= []).push(r)
        continue
      }
      if (!a.images.some((i) => i.image === r.image)) a.images.push({ ...r, file })
    }
  }
  for (const r of awesome) {
    if (!r.repo) continue
    const a = app(r.repo)
    a.awesome ??= r
    if (!r.archived && r.currentRelease?.publishedAt >= AWESOME_SINCE) a.sources.add('awesome-selfhosted')
  }
  const communityNoRepo = new Map()
  for (const r of community) {
    if (!r.repo) {
      const k = r.app
      if (!communityNoRepo.has(k)) communityNoRepo.set(k, [])
      communityNoRepo.get(k).push(r.image)
      continue
    }
    const a = app(r.repo)
    a.sources.add('community')
    a.communityApp ??= r
    if (!a.community.some((c) => c.image === r.image)) a.community.push(r)
  }
  for (const [name, imgs] of communityNoRepo) {
    notRecorded.push(`${name} (community.jsonl: no GitHub repository; ${imgs.length} image(s), e.g. ${imgs[0]})`)
  }
  return { apps, notRecorded }
}

function readRecords(appsDir) {
  const records = new Map()
  if (!fs.existsSync(appsDir)) return records
  for (const file of fs
    .readdirSync(appsDir)
    .filter((f) => f.endsWith('.yml'))
    .sort()) {
    const text = fs.readFileSync(path.join(appsDir, file), 'utf8')
    const entry = YAML.parse(text)
    records.set(keyOf(entry.repo), { slug: file.slice(0, -4), entry, text })
  }
  return records
}

function imagesComment(slug, list, repo, components) {
  const files = [...new Set(list.map((r) => r.file))]
  const head = files.map((f) => (f === 'images.jsonl' ? 'images.jsonl, read 2026-11-28' : f)).join('; ')
  const doubt = DOUBTS[slug] ?? (REGISTRY_LINK_ONLY.includes(slug) ? 'named by a registry link or badge only' : null)
  return [
    ` images: from the shared image data set (${head}):`,
    ...list.map(
      (r) =>
        ` ${r.image} (${r.kind}${listedAs(r.repo, repo)}): named in ${r.source.repo}/${r.source.path} at commit ${r.source.commit}`
    ),
    ...(doubt ? [` Doubtful: ${doubt}.`] : []),
    ...(components ?? []).map((r) => ` Not mapped: ${r.image}, ${COMPONENTS[r.image]}.`)
  ].join('\n')
}

function communityComment(list, cut, repo) {
  // One line per publisher and source file: the registry aliases of one build share them.
  const groups = new Map()
  for (const r of list) {
    const src = `${r.source.repo}/${r.source.path} at commit ${commit7(r.source.commit)}`
    const also = r.repo_source
      ? `; repository named in ${r.repo_source.repo}/${r.repo_source.path} at commit ${commit7(r.repo_source.commit)}`
      : ''
    const key = `${r.publisher}|${tagRuleOf(r)}|${src}${also}`
    if (!groups.has(key)) groups.set(key, { r, src: src + also, images: [] })
    groups.get(key).images.push(r.image)
  }
  const lines = [
    ' community: builds by other publishers, from the shared image data set (community.jsonl, snapshots read',
    " 2026-12-01); tags is the publisher's tag rule (its COMMUNITY.md), channel the upstream channel followed:"
  ]
  for (const { r, src, images } of groups.values()) {
    const rule = tagRuleOf(r)
    const why =
      rule === 'own' && r.publisher !== 'jlesage'
        ? ' (its tags carry no upstream version)'
        : r.publisher === 'xirixiz'
          ? " (the upstream tag without its 'v')"
          : ''
    lines.push(` ${images.join(', ')} (${r.publisher}, tags ${rule}${why}${listedAs(r.repo, repo)}): mapped in ${src}`)
  }
  if (cut.length > 0) lines.push(` Left out (at most ${MAX_COMMUNITY}): ${cut.join(', ')}.`)
  return lines.join('\n')
}

function categoriesComment(a, cut, repo) {
  return [
    ` categories: the app's tags in ${AWESOME_CREDIT},`,
    ` ${a.source.path} at commit ${a.source.commit} (shared data apps/awesome-selfhosted.jsonl${listedAs(a.repo, repo)}).`,
    ...(cut.length > 0 ? [` Left out (at most ${MAX_CATEGORIES}): ${cut.join(', ')}.`] : [])
  ].join('\n')
}

/** Release seed from awesome-selfhosted's currentRelease, or why there is none. */
function seedOf(a) {
  const cr = a.awesome?.currentRelease
  if (!a.awesome) return { why: 'awesome-selfhosted does not list this repository' }
  if (!cr?.tag) return { why: 'awesome-selfhosted gives no current release for it' }
  const tag = String(cr.tag)
  if (!isStableVersion(tag) || /\s/.test(tag) || tag.length > 128)
    return {
      why: `awesome-selfhosted's current release tag ${JSON.stringify(tag).slice(0, 80)} is not a stable version label`
    }
  const url = `https://github.com/${a.repo}/releases/tag/${encodeURIComponent(tag).replace(/%2F/g, '/')}`
  return { release: { version: tag, url, date: cr.publishedAt, checked: AWESOME_READ_DAY } }
}

function header(a, seed) {
  const lines = ['# Generated by scripts/catalog-generate.mjs from the updatesafe shared data set; facts only.']
  if (a.more) {
    lines.push(
      `# name, repo and slug: images/more-images.jsonl (app "${a.more.slug}", its image named in`,
      `# ${a.more.source.repo}/${a.more.source.path} at commit ${a.more.source.commit}).`
    )
  } else if (a.sources.has('awesome-selfhosted')) {
    lines.push(
      `# name and repo: ${AWESOME_CREDIT},`,
      `# ${a.awesome.source.path} at commit ${a.awesome.source.commit} (shared data apps/awesome-selfhosted.jsonl).`
    )
  } else {
    const c = a.communityApp
    lines.push(
      `# name and repo: images/community.jsonl (${c.image}, mapped to its upstream in`,
      `# ${c.source.repo}/${c.source.path} at commit ${c.source.commit}).`
    )
  }
  const others = [...new Set(a.spellings.filter((r) => lower(r) !== lower(a.repo)))]
  if (others.length > 0)
    lines.push(
      `# The data set also names this app's repository ${others.join(', ')} (renamed, or a companion repository).`
    )
  if (a.awesome?.archived) {
    lines.push(`# archived: as awesome-selfhosted's metadata job read it (${a.awesome.source.path}, CC-BY-SA 3.0).`)
  }
  if (seed.release) {
    lines.push(
      "# release: the latest GitHub release as awesome-selfhosted's metadata job read it (currentRelease in",
      `# ${a.awesome.source.path} at commit ${a.awesome.source.commit}, CC-BY-SA 3.0); checked: ${AWESOME_READ_DAY},`,
      "# the day of that read; url is the tag's GitHub release page. A refresh replaces it with what GitHub says."
    )
  } else {
    lines.push(`# No release is recorded (${seed.why}): builds show it as not read yet until a refresh reads GitHub.`)
  }
  return lines.join('\n')
}

/** Set (or add, in KEY_ORDER) one top-level key with the comment naming its sources. */
function setKey(doc, key, value, comment) {
  const items = doc.contents.items
  let pair = items.find((p) => (p.key?.value ?? p.key) === key)
  if (pair) pair.value = doc.createNode(value)
  else {
    const rank = KEY_ORDER.indexOf(key)
    const at = items.findIndex((p) => KEY_ORDER.indexOf(p.key?.value ?? p.key) > rank)
    pair = doc.createPair(key, value)
    items.splice(at < 0 ? items.length : at, 0, pair)
  }
  pair.key = doc.createNode(key)
  pair.key.commentBefore = comment
}

/** The record's text as it should be: `existing` is its current text (null for a new record). */
function render(slug, a, existingText) {
  let doc
  const cut = { images: [], community: [], categories: [] }
  if (existingText == null) {
    const seed = seedOf(a)
    const body = {
      name: a.name,
      repo: a.repo,
      ...(a.awesome?.archived ? { archived: true } : {}),
      ...(seed.release ? { release: seed.release } : {})
    }
    doc = new YAML.Document(body)
    doc.commentBefore = header(a, seed)
      .split('\n')
      .map((l) => l.replace(/^#/, ''))
      .join('\n')
    // Round-trip once so a new record reads exactly as it will on every later run.
    doc = YAML.parseDocument(doc.toString({ lineWidth: 0 }))
  } else doc = YAML.parseDocument(existingText)

  if (a.awesome && a.awesome.tags?.length > 0) {
    const tags = [...new Set(a.awesome.tags)]
    cut.categories = tags.slice(MAX_CATEGORIES)
    setKey(doc, 'categories', tags.slice(0, MAX_CATEGORIES), categoriesComment(a.awesome, cut.categories, a.repo))
  }
  if (a.images.length > 0) {
    const kept = a.images.slice(0, MAX_IMAGES)
    cut.images = a.images.slice(MAX_IMAGES).map((r) => r.image)
    setKey(
      doc,
      'images',
      kept.map((r) => r.image),
      imagesComment(slug, kept, a.repo, a.components) +
        (cut.images.length ? `\n Left out (at most ${MAX_IMAGES}): ${cut.images.join(', ')}.` : '')
    )
  }
  if (a.community.length > 0) {
    const usable = a.community.filter((r) => tagRuleOf(r) !== null)
    const kept = usable.slice(0, MAX_COMMUNITY)
    cut.community = usable.slice(MAX_COMMUNITY).map((r) => r.image)
    setKey(
      doc,
      'community',
      kept.map((r) => ({ image: r.image, tags: tagRuleOf(r), ...(r.channel ? { channel: r.channel } : {}) })),
      communityComment(kept, cut.community, a.repo)
    )
  }
  return { text: doc.toString({ lineWidth: 0 }), cut }
}

/**
 * Generate every record into `<catalogDir>/apps`; with `check`, write nothing. Returns what changed and what was
 * left out, so the caller can print it.
 */
export function generate({ dataDir, catalogDir, check = false }) {
  const appsDir = path.join(catalogDir, 'apps')
  const { apps, notRecorded } = collect(dataDir)
  const records = readRecords(appsDir)
  // Apps only awesome-selfhosted knows but did not select (older release, archived) get no record of their own;
  // a record that exists still gets their categories.
  for (const [k, a] of apps) if (a.sources.size === 0 && !records.has(k)) apps.delete(k)
  const taken = new Map([...records.values()].map((r) => [r.slug, keyOf(r.entry.repo)]))

  // Fixed order for new slugs: more-images by slug, awesome-selfhosted in file order, community by image.
  const order = [...apps.values()].sort((x, y) => {
    const rank = (a) => (a.more ? 0 : a.sources.has('awesome-selfhosted') ? 1 : 2)
    const keyOf = (a) =>
      a.more
        ? a.more.slug
        : a.sources.has('awesome-selfhosted')
          ? a.awesome.name.toLowerCase()
          : (a.communityApp?.image ?? a.key)
    return rank(x) - rank(y) || (keyOf(x) < keyOf(y) ? -1 : keyOf(x) > keyOf(y) ? 1 : 0) || (x.key < y.key ? -1 : 1)
  })
  const report = { added: [], updated: [], unchanged: [], skipped: [], cut: [], notRecorded }
  const counts = { existing: 0, 'more-images': 0, 'awesome-selfhosted': 0, community: 0 }
  let differs = 0
  for (const a of order) {
    const existing = records.get(a.key)
    a.name =
      existing?.entry.name ??
      a.more?.name ??
      (a.sources.has('awesome-selfhosted') ? a.awesome.name : null) ??
      a.communityApp?.app ??
      a.awesome?.name
    a.repo = existing?.entry.repo ?? a.spellings.find((r) => lower(r) === a.key) ?? a.spellings[0]
    let slug = existing?.slug
    if (!slug) {
      const base =
        (a.more && !taken.has(a.more.slug) ? a.more.slug : null) ?? (slugify(a.name) || slugify(a.repo.split('/')[1]))
      const owner = slugify(a.repo.split('/')[0])
      slug = [base, `${base}-${owner}`].find((s) => s && !taken.has(s))
      for (let n = 2; !slug; n++) if (!taken.has(`${base}-${n}`)) slug = `${base}-${n}`
      taken.set(slug, a.key)
    }
    counts[
      existing
        ? 'existing'
        : a.more
          ? 'more-images'
          : a.sources.has('awesome-selfhosted')
            ? 'awesome-selfhosted'
            : 'community'
    ]++
    let out
    try {
      out = render(slug, a, existing?.text ?? null)
    } catch (e) {
      report.skipped.push(`${slug} (${e instanceof Error ? e.message : String(e)})`)
      continue
    }
    const parsed = catalogEntrySchema.safeParse(YAML.parse(out.text))
    if (!parsed.success) {
      // One odd upstream app never stops the run: it is left as it is, and named.
      const issue = parsed.error.issues[0]
      report.skipped.push(`${slug} (${issue.path.join('.')}: ${issue.message})`)
      continue
    }
    for (const [k, v] of Object.entries(out.cut)) if (v.length) report.cut.push(`${slug} ${k}: ${v.join(', ')}`)
    if (out.text === existing?.text) {
      report.unchanged.push(slug)
      continue
    }
    differs++
    ;(existing ? report.updated : report.added).push(slug)
    if (!check) {
      fs.mkdirSync(appsDir, { recursive: true })
      fs.writeFileSync(path.join(appsDir, `${slug}.yml`), out.text)
    }
  }
  return { report, counts, differs }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
  const args = process.argv.slice(2)
  const opt = (name, fallback) => {
    const i = args.indexOf(name)
    return i >= 0 && args[i + 1] ? path.resolve(args[i + 1]) : fallback
  }
  const check = args.includes('--check')
  const { report, counts, differs } = generate({
    dataDir: opt('--data', path.resolve(root, '../shared/data')),
    catalogDir: opt('--catalog', path.join(root, 'catalog')),
    check
  })
  console.log(`records by source: ${JSON.stringify(counts)}`)
  for (const k of ['added', 'updated', 'skipped', 'cut', 'notRecorded']) {
    const v = report[k]
    console.log(`${k === 'notRecorded' ? 'not recorded' : k} (${v.length})${v.length ? ':\n  ' + v.join('\n  ') : ''}`)
  }
  console.log(`unchanged (${report.unchanged.length})`)
  if (check && differs > 0) {
    console.error(`${differs} record(s) would change`)
    process.exit(1)
  }
  console.log(check ? 'all records are up to date' : `${differs} record(s) written`)
}
