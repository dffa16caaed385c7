// Writes each catalog record's `images:` from the team's shared image data set
// (../shared/data/images/images.jsonl: which container images a project publishes or documents, each with
// the repository file and commit that names it). Image names are facts; the file that names each one is
// recorded in a comment above the key, never the line itself (that is upstream's text).
//
//   node scripts/catalog-images.mjs            rewrite catalog/apps/*.yml where the images differ
//   node scripts/catalog-images.mjs --check    exit 1 if a record would change
//
// Only `official` and `library` images are mapped: a community wrapper (LinuxServer.io's, say) versions the
// app its own way (`1.2.3-ls45`), so it is mapped only where a record says so by hand. Records of a repository
// the data set does not list keep whatever images they have.
import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] ? path.resolve(args[i + 1]) : fallback
}
const check = args.includes('--check')
const imagesFile = opt('--images', path.resolve(root, '../shared/data/images/images.jsonl'))
const appsDir = path.join(opt('--catalog', path.join(root, 'catalog')), 'apps')

const KINDS = ['official', 'library']

// Where the data set's README calls a mapping doubtful, the record says so (our words).
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
  'oauth2-proxy': 'nightly images are listed too'
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
const byRepo = new Map()
for (const line of fs.readFileSync(imagesFile, 'utf8').split('\n')) {
  if (line.trim() === '') continue
  const r = JSON.parse(line)
  if (!KINDS.includes(r.kind)) continue
  const key = r.repo.toLowerCase()
  if (!byRepo.has(key)) byRepo.set(key, [])
  const list = byRepo.get(key)
  if (!list.some((o) => o.image === r.image)) list.push(r)
}

let differs = 0
const mapped = []
for (const file of fs
  .readdirSync(appsDir)
  .filter((f) => f.endsWith('.yml'))
  .sort()) {
  const full = path.join(appsDir, file)
  const text = fs.readFileSync(full, 'utf8')
  const doc = YAML.parseDocument(text)
  const found = byRepo.get(String(doc.get('repo')).toLowerCase())
  if (!found) continue
  const sources = found.map(
    (r) => ` ${r.image} (${r.kind}): named in ${r.source.repo}/${r.source.path} at commit ${r.source.commit}`
  )
  const seq = doc.createNode(found.map((r) => r.image))
  const pair = doc.contents.items.find((p) => p.key?.value === 'images')
  const slug = file.slice(0, -4)
  const doubt = DOUBTS[slug] ?? (REGISTRY_LINK_ONLY.includes(slug) ? 'named by a registry link or badge only' : null)
  const comment = [
    ' images: from the shared image data set (images.jsonl, read 2026-11-28):',
    ...sources,
    ...(doubt ? [` Doubtful: ${doubt}.`] : [])
  ].join('\n')
  if (pair) pair.value = seq
  else {
    // Before the release block, where a reader looks for what the app is.
    const at = doc.contents.items.findIndex((p) => ['lifecycle', 'override', 'release'].includes(p.key?.value))
    doc.contents.items.splice(at < 0 ? doc.contents.items.length : at, 0, doc.createPair('images', seq))
  }
  const node = doc.contents.items.find((p) => p.key?.value === 'images')
  node.key = doc.createNode('images')
  node.key.commentBefore = comment
  const next = doc.toString({ lineWidth: 0 })
  mapped.push(`${slug} (${found.length})`)
  if (next === text) continue
  differs++
  if (!check) fs.writeFileSync(full, next)
}
console.log(`records with images (${mapped.length}): ${mapped.join(', ')}`)
if (check && differs > 0) {
  console.error(`${differs} record(s) would change`)
  process.exit(1)
}
console.log(check ? 'all records are up to date' : `${differs} record(s) written`)
