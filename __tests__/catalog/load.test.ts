import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseDocument } from 'yaml'
import { loadCatalog, parseRecord, type CatalogIssue } from '../../src/catalog/load.js'
import { formatProblem as formatIssue, ProblemsError } from '../../src/util/problems.js'
import { catalogEntrySchema } from '../../src/schema/index.js'
import { tempDir } from '../support/tmp.js'

const GOOD = `# comment
name: Gitea
repo: go-gitea/gitea
release:
  version: 1.23.5
  url: https://github.com/go-gitea/gitea/releases/tag/v1.23.5
  date: 2025-03-03
  checked: 2026-11-21
`

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  await mkdir(path.join(dir, 'apps'))
})
afterEach(() => cleanup())

async function put(name: string, text: string | Buffer) {
  await writeFile(path.join(dir, 'apps', name), text)
}

async function issuesOf(): Promise<CatalogIssue[]> {
  try {
    await loadCatalog(dir)
  } catch (e) {
    expect(e).toBeInstanceOf(ProblemsError)
    expect((e as ProblemsError).kind).toBe('catalog')
    return (e as ProblemsError).problems as CatalogIssue[]
  }
  throw new Error('expected the catalog to be rejected')
}

describe('parseRecord', () => {
  it('accepts a full record and a record with only name and repo', () => {
    expect(parseRecord(GOOD, 'a.yml').entry?.release?.version).toBe('1.23.5')
    const minimal = parseRecord('name: X\nrepo: owner/x\n', 'b.yml')
    expect(minimal.issues).toEqual([])
    expect(minimal.entry).toEqual({ name: 'X', repo: 'owner/x' })
  })

  it('names the line and field of an unknown key, nested or not', () => {
    const { issues } = parseRecord(GOOD.replace('  date:', '  dat:').replace('repo:', 'repository: x\nrepo:'), 'a.yml')
    const byField = Object.fromEntries(issues.map((i) => [i.field, i]))
    expect(byField['repository']).toMatchObject({ line: 3, message: expect.stringContaining('unknown key') })
    expect(byField['release.dat']).toMatchObject({ line: 8, column: 3 })
  })

  it('suggests the key a misspelt one most likely means, at the level it sits on', () => {
    const record = 'name: X\nrepos: owner/x\ntag_prefix: v\nTagPattern: x\nrelease:\n  vesrion: "1"\n  chekced: x\noverride:\n  clas: safe\ncolour: red\n'
    const messages = Object.fromEntries(parseRecord(record, 'a.yml').issues.map((i) => [i.field, i.message]))
    expect(messages).toMatchObject({
      repos: 'unknown key; did you mean `repo`? (every field is in docs/catalog.md)',
      tag_prefix: expect.stringContaining('did you mean `tagPrefix`?'),
      TagPattern: expect.stringContaining('did you mean `tagPattern`?'),
      'release.vesrion': expect.stringContaining('did you mean `version`?'),
      'release.chekced': expect.stringContaining('did you mean `checked`?'),
      'override.clas': expect.stringContaining('did you mean `class`?'),
      colour: 'unknown key (check the spelling; every field is in docs/catalog.md)'
    })
  })

  it('refuses release notes in a record, saying where a build reads them instead', () => {
    const record = 'name: X\nrepo: owner/x\nrelease:\n  version: "1"\n  url: https://x.example/1\n  checked: 2026-11-21\n  notes: x\n'
    expect(parseRecord(record, 'a.yml').issues).toEqual([
      expect.objectContaining({
        field: 'release.notes',
        line: 7,
        message: expect.stringMatching(/not kept in catalog records.*--refresh.*--notes-from FILE/)
      })
    ])
  })

  it('reports a missing name as required', () => {
    const { issues } = parseRecord('repo: owner/x\n', 'a.yml')
    expect(issues).toEqual([expect.objectContaining({ field: 'name', message: 'is required' })])
  })

  it('rejects a repo that is not <owner>/<name>, pointing at its line', () => {
    for (const repo of ['gitea', 'a/b/c', 'https://github.com/a/b', 'owner/..', '-x/y']) {
      const { issues } = parseRecord(`name: X\nrepo: ${repo}\n`, 'a.yml')
      expect(issues).toEqual([expect.objectContaining({ field: 'repo', line: 2, message: 'must be "<owner>/<name>"' })])
    }
    const { issues } = parseRecord('name: X\nrepo: binwiederhier/ntfy.git\n', 'a.yml')
    expect(issues).toEqual([
      expect.objectContaining({ field: 'repo', line: 2, message: expect.stringMatching(/^must not end in "\.git"/) })
    ])
  })

  it('accepts community builds and categories, and names the file, line and field of a bad one', () => {
    const record = `name: Sonarr
repo: Sonarr/Sonarr
categories:
  - Media Management
community:
  - image: lscr.io/linuxserver/sonarr
    tags: linuxserver
    channel: stable
  - image: ghcr.io/hotio/sonarr
    tags: hotio
`
    expect(parseRecord(record, 'sonarr.yml')).toEqual({
      entry: expect.objectContaining({
        categories: ['Media Management'],
        community: [
          { image: 'lscr.io/linuxserver/sonarr', tags: 'linuxserver', channel: 'stable' },
          { image: 'ghcr.io/hotio/sonarr', tags: 'hotio' }
        ]
      }),
      issues: []
    })
    const bad = record
      .replace('tags: hotio', 'tags: hotio-style')
      .replace('channel: stable', 'channel: edge')
      .replace('  - Media Management', '  - Media\u202eManagement')
    const { issues } = parseRecord(bad, 'sonarr.yml')
    expect(issues.map((i) => [i.file, i.line, i.field]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['sonarr.yml', 4, 'categories.0'],
      ['sonarr.yml', 8, 'community.0.channel'],
      ['sonarr.yml', 10, 'community.1.tags']
    ])
    // Over the caps: 9 categories, 41 community builds.
    const many = `name: X\nrepo: a/b\ncategories:\n${'  - c\n'.repeat(9)}community:\n${'  - image: a/b\n    tags: as-is\n'.repeat(41)}`
    expect(parseRecord(many, 'x.yml').issues.map((i) => [i.line, i.field]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [4, 'categories'],
      [14, 'community']
    ])
  })

  it('reports YAML syntax errors with their position', () => {
    const { issues } = parseRecord('name: X\nrepo: [a/b\n', 'a.yml')
    expect(issues[0]).toMatchObject({ message: expect.stringMatching(/^YAML syntax error/) })
    expect(issues[0]!.line).toBeGreaterThanOrEqual(2)
  })

  it('rejects a number where a version label belongs, with a hint to quote it', () => {
    const { issues } = parseRecord(GOOD.replace('version: 1.23.5', 'version: 1.10'), 'a.yml')
    expect(issues).toEqual([expect.objectContaining({ field: 'release.version', line: 5, message: expect.stringContaining('quotes') })])
  })

  it('rejects non-http release URLs and impossible dates', () => {
    const { issues } = parseRecord(GOOD.replace(/url: .*/, 'url: javascript:alert(1)').replace('2025-03-03', '2025-02-30'), 'a.yml')
    expect(issues.map((i) => i.field).sort()).toEqual(['release.date', 'release.url'])
    // A mistyped scheme is told what a URL must be, not "Invalid URL".
    const typo = parseRecord(GOOD.replace(/url: .*/, 'url: htps://github.com/x/y'), 'a.yml').issues
    expect(typo).toEqual([
      expect.objectContaining({ field: 'release.url', message: 'must be an http:// or https:// URL' })
    ])
  })

  it('gives one message for a date that is not YYYY-MM-DD at all', () => {
    const { issues } = parseRecord(GOOD.replace('checked: 2026-11-21', 'checked: yesterday'), 'a.yml')
    expect(issues.map((i) => `${i.line} ${i.field}: ${i.message}`)).toEqual(['8 release.checked: must be a date written YYYY-MM-DD'])
  })

  it('refuses a tagPattern RE2 cannot run in linear time, at its line, and accepts the backtracking-prone one RE2 runs', () => {
    const { issues } = parseRecord('name: X\nrepo: a/b\ntagPattern: \'^(?=v)v(\\d)\\1\'\n', 'a.yml')
    expect(issues).toEqual([
      expect.objectContaining({ field: 'tagPattern', line: 3, message: expect.stringMatching(/^must be a regular expression in RE2 syntax/) })
    ])
    expect(parseRecord("name: X\nrepo: a/b\ntagPattern: '^(\\d+\\.?)+$'\n", 'a.yml').issues).toEqual([])
  })

  it('refuses controls, bidi overrides and noncharacters in catalog text, at the field and line', () => {
    const text = [
      'name: "Evil\\e[31m"',
      'repo: a/b',
      'successor: "x\\u202Ey"',
      'tagPrefix: "v\\0"',
      'override:',
      '  class: safe',
      '  reason: "ring \\a and \\N"',
      '  version: "1"',
      'release:',
      '  version: "1"',
      '  url: https://example.org/1',
      '  checked: 2026-11-21'
    ].join('\n')
    const { issues } = parseRecord(`${text}\n`, 'a.yml')
    expect(issues.map((i) => `${i.line} ${i.field}: ${i.message.replace(/^.*: /, '')}`)).toEqual([
      '1 name: U+001B at character 5',
      '4 tagPrefix: U+0000 at character 2',
      '3 successor: U+202E at character 2',
      '7 override.reason: U+0007 at character 6'
    ])
    expect(parseRecord('name: "a\\nb"\nrepo: a/b\n', 'a.yml').issues).toEqual([
      expect.objectContaining({ field: 'name', message: expect.stringContaining('newlines included') })
    ])
  })

  // Its speed (once 38 s, now linear in the record's size) is bench/'s to measure: a test under load cannot time it.
  it('refuses a record of 40,000 unknown keys in one issue', () => {
    const text = (n: number) => `name: X\nrepo: a/b\n${Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n')}\n`
    const { issues } = parseRecord(text(40_000), 'a.yml')
    expect(issues).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/^has more than 200 keys/) })])
    // Nested or in a text js-yaml cannot read either, the cap holds.
    const broken = `name: X\nrepo: [a\n${Array.from({ length: 40_000 }, (_, i) => `k${i}: v`).join('\n')}\n`
    expect(parseRecord(broken, 'b.yml').issues[0]!.message).toMatch(/^has more than 200 keys/)
  })

  it('rejects an override with an unknown class', () => {
    const { issues } = parseRecord('name: X\nrepo: a/b\noverride:\n  class: fine\n  reason: r\n  version: "1"\n', 'a.yml')
    expect(issues).toEqual([expect.objectContaining({ field: 'override.class', line: 4 })])
  })
})

/** What `yaml` alone makes of a text, read as YAML 1.2: the entry when it is a valid record, else undefined. */
function byYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true })
  if (doc.errors.length > 0 || doc.directives?.yaml.version !== '1.2') return undefined
  const parsed = catalogEntrySchema.safeParse(doc.toJS())
  return parsed.success ? parsed.data : undefined
}

// Valid records go through js-yaml, the rest through `yaml`; these texts are where YAML readers are known to part ways.
const TRICKY = [
  GOOD.replace(/\n/g, '\r\n'),
  `\ufeff${GOOD}`,
  `---\n${GOOD}...\n`,
  'name: "Caf\\u00e9 \\x41\\N\\_"\nrepo: \'a/b\'\'\'\n',
  'name: >-\n  folded\n\n  lines\n   kept\nrepo: a/b\n',
  'name: X\nrepo: a/b\nrelease:\n  version: "1.0"\n  url: https://x.example/r\n  checked: 2026-11-21\nsuccessor: |+\n  kept\n\n\n',
  'name: X\nrepo: a/b\nrelease:\n  version: v2\n  url: https://x.example/r\n  checked: 2026-11-21\n  date: ~\nsuccessor: |2-\n   indented\n  less\n',
  'name: X\nrepo: a/b\nrelease:\n  version: v2\n  url: https://x.example/r\n  checked: 2026-11-21\nsuccessor: "tab\there\\t and \\\n  escaped break"\n',
  'base: &r\n  version: v1\nname: X\nrepo: a/b\n',
  'name: X\nrepo: a/b\nrelease: &r {version: v1, url: "https://x.example/r", checked: 2026-11-21}\n',
  'name: X\nrepo: a/b\narchived: True\nsuccessor: Y\n',
  'name: X\nrepo: a/b\narchived: yes\n',
  '%YAML 1.2\n---\nname: yes\nrepo: a/b\narchived: true\n',
  '\ufeff%YAML 1.1\n---\nname: yes\nrepo: a/b\n',
  'name: 1_000\nrepo: a/b\n',
  'name: !!str 0x1F\nrepo: a/b\n',
  'name: X\nrepo: a/b\nname: Y\n',
  '%YAML 1.1\n---\nname: X\nrepo: a/b\nrelease:\n  version: v1\n  url: https://x.example/r\n  checked: 2026-11-21\n',
  '%YAML 1.1\n---\nname: yes\nrepo: a/b\n',
  '? [name]\n: X\nrepo: a/b\n',
  '[name]: X\nrepo: a/b\n',
  '? - name\n: X\nrepo: a/b\n',
  'name: X\nrepo: a/b\n<<: {successor: Y}\n',
  'name: !custom X\nrepo: a/b\n',
  '',
  '# only a comment\n'
]

describe('parseRecord reads as yaml does', () => {
  it('on every record of the bundled catalog', () => {
    const dir = 'catalog/apps'
    const names = readdirSync(dir).filter((n) => n.endsWith('.yml'))
    expect(names.length).toBeGreaterThan(10)
    for (const name of names) {
      const text = readFileSync(path.join(dir, name), 'utf8')
      expect({ name, entry: parseRecord(text, name).entry }).toEqual({ name, entry: byYaml(text) })
    }
  })

  it('on texts where YAML readers differ', () => {
    for (const text of TRICKY) {
      const { entry, issues } = parseRecord(text, 'a.yml')
      expect({ text, entry }).toEqual({ text, entry: byYaml(text) })
      if (!entry) expect(issues.length).toBeGreaterThan(0)
    }
    // The cases above that yaml accepts, so that the comparison is not only of refusals.
    expect(TRICKY.filter((t) => byYaml(t) !== undefined).length).toBeGreaterThanOrEqual(10)
  })

  it('accepts a quoted scalar continued at its key\'s indentation, which yaml refuses', () => {
    // The one leniency of js-yaml we keep: the reading is the evident one, and `yaml` would stop the build.
    const text = 'name: X\nrepo: a/b\noverride:\n  class: safe\n  reason: "read \\\n  by hand"\n  version: v1\n'
    expect(byYaml(text)).toBeUndefined()
    expect(parseRecord(text, 'a.yml').entry).toEqual({ name: 'X', repo: 'a/b', override: { class: 'safe', reason: 'read by hand', version: 'v1' } })
  })

  it('refuses a sequence used as a key, which js-yaml alone would read as its text', () => {
    const { entry, issues } = parseRecord('? [name]\n: X\nrepo: a/b\n', 'a.yml')
    expect(entry).toBeUndefined()
    expect(issues).toEqual(expect.arrayContaining([expect.objectContaining({ line: 1, message: expect.stringContaining('unknown key') })]))
  })

  it('refuses a %YAML 1.1 directive, which would read yes as true, and hints at the value a field expects', () => {
    const old = parseRecord('# a record\n%YAML 1.1\n---\nname: X\nrepo: a/b\narchived: yes\n', 'a.yml')
    expect(old.entry).toBeUndefined()
    expect(old.issues).toEqual([{ file: 'a.yml', line: 2, column: 1, message: 'records are YAML 1.2; remove the %YAML 1.1 line' }])
    const [flag] = parseRecord('name: X\nrepo: a/b\narchived: yes\n', 'a.yml').issues
    expect(flag).toMatchObject({ line: 3, field: 'archived' })
    expect(flag!.message).toContain('(write true or false)')
    expect(flag!.message).not.toContain('quotes')
    expect(parseRecord('name: X\nrepo: a/b\nrelease:\n  version: 1.10\n  url: https://x.example/r\n  checked: 2026-11-21\n', 'a.yml').issues[0]!.message).toContain('write it in quotes')
  })

  it('says a record with a second document holds two, at the second, without naming the parser’s API', () => {
    const { issues } = parseRecord('name: X\nrepo: a/b\n---\nname: Y\n', 'a.yml')
    expect(issues).toEqual([
      expect.objectContaining({ line: 3, message: 'holds more than one YAML document (a second --- line); a record is one document' })
    ])
  })

  it('reports a duplicate key at its line', () => {
    const { issues } = parseRecord('name: X\nrepo: a/b\nname: Y\n', 'a.yml')
    expect(issues).toEqual([expect.objectContaining({ line: 3, message: expect.stringContaining('YAML syntax error') })])
  })
})

describe('loadCatalog', () => {
  it('loads records ordered by slug', async () => {
    await put('zeta.yml', 'name: Z\nrepo: a/z\n')
    await put('alpha.yml', 'name: A\nrepo: a/a\n')
    expect((await loadCatalog(dir)).map((e) => e.slug)).toEqual(['alpha', 'zeta'])
  })

  it('reports an unresolved alias and an alias bomb per file, and the other files\' errors still come out', async () => {
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 12; i++) bomb.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`)
    await put('a.yml', 'name: A\nrepo: a/a\nsuccessor: *nope\n')
    await put('b.yml', `name: B\nrepo: a/b\n${bomb.join('\n')}\n`)
    await put('c.yml', 'name: C\nrepo: a/c\nbogus: 1\n')
    // Few nodes, many expansions: 150 aliases of one value.
    await put('d.yml', `name: D\nrepo: a/d\nx: &x y\nz: [${Array(150).fill('*x').join(', ')}]\n`)
    const issues = await issuesOf()
    expect(issues.map((i) => `${path.basename(i.file)}:${i.line} ${i.field ?? ''} ${i.message.split(' (')[0]}`)).toEqual([
      'a.yml:3  YAML: unresolved alias *nope',
      'b.yml:1  has more than 200 keys and list items; a record has about 10',
      'c.yml:3 bogus unknown key',
      'd.yml:1  YAML: aliases expand to more than 100 nodes'
    ])
  })

  it('warns about files in apps/ that are not <slug>.yml records, with a hint for x.YML', async () => {
    await put('gitea.yml', GOOD)
    await put('Traefik.YML', GOOD)
    await put('AdGuard_Home.YAML', GOOD)
    await put('traefik.yml.bak', GOOD)
    await put('notes.txt', 'x')
    await put('.gitkeep', '')
    const warnings: string[] = []
    const log = { info: () => {}, error: () => {}, warning: (m: string, ref?: { file?: string }) => warnings.push(`${path.basename(ref?.file ?? '')}: ${m}`) }
    expect((await loadCatalog(dir, log)).map((e) => e.slug)).toEqual(['gitea'])
    // The hint names a file that validates: the slug rules applied, not the case of the extension alone.
    expect(warnings).toEqual([
      'AdGuard_Home.YAML: ignored: AdGuard_Home.YAML is not a <slug>.yml record; records are named <slug>.yml in lower case: rename it to adguard-home.yml',
      'Traefik.YML: ignored: Traefik.YML is not a <slug>.yml record; records are named <slug>.yml in lower case: rename it to traefik.yml',
      'notes.txt: ignored: notes.txt is not a <slug>.yml record',
      'traefik.yml.bak: ignored: traefik.yml.bak is not a <slug>.yml record'
    ])
  })

  it('reports every error of a run together', async () => {
    await put('one.yml', 'name: A\nrepo: a/a\ncolour: red\n')
    await put('two.yml', 'repo: a/b\n')
    await put('Foo_Bar.yml', 'name: F\nrepo: a/f\n')
    const issues = await issuesOf()
    expect(issues.map((i) => `${path.basename(i.file)} ${i.field ?? ''}`).sort()).toEqual(['Foo_Bar.yml ', 'one.yml colour', 'two.yml name'])
  })

  it.each(['Foo_Bar.yml', '..x.yml', '.hidden.yml', 'a--b.yml', '-a.yml'])('rejects the file name %s as a slug', async (name) => {
    await put(name, 'name: A\nrepo: a/a\n')
    const [issue] = await issuesOf()
    expect(issue!.file).toBe(path.join(dir, 'apps', name))
    expect(issue!.message).toContain('not a valid slug')
  })

  it('rejects the same repository twice, case-insensitively, naming both files', async () => {
    await put('a.yml', 'name: A\nrepo: Owner/App\n')
    await put('b.yml', '# x\nname: B\nrepo: owner/app\n')
    const [other, issue] = await issuesOf()
    expect(issue).toMatchObject({ file: path.join(dir, 'apps', 'b.yml'), line: 3, field: 'repo' })
    expect(issue!.message).toContain(`${path.join(dir, 'apps', 'a.yml')}:2`)
    // The other file carries the error too: either may be the one just added.
    expect(other).toMatchObject({ file: path.join(dir, 'apps', 'a.yml'), line: 2, field: 'repo' })
    expect(other!.message).toBe(`repository Owner/App is tracked again by ${path.join(dir, 'apps', 'b.yml')}:3`)
  })

  it('reports a repository tracked twice even when one of the records has other errors', async () => {
    await put('a.yml', 'name: A\nrepo: owner/app\ncolour: red\n')
    await put('b.yml', 'repo: Owner/App\n')
    await put('c.yml', 'name: C\nrepo: owner/other\nhompage: x\n')
    const issues = await issuesOf()
    expect(issues.map((i) => `${path.basename(i.file)}:${i.line} ${i.field}: ${i.message.split(' (')[0]}`)).toEqual([
      'a.yml:3 colour: unknown key',
      `a.yml:2 repo: repository owner/app is tracked again by ${path.join(dir, 'apps', 'b.yml')}:1`,
      'b.yml:1 name: is required',
      `b.yml:1 repo: repository Owner/App is already tracked by ${path.join(dir, 'apps', 'a.yml')}:2`,
      'c.yml:3 hompage: unknown key'
    ])
  })

  it('rejects one image mapped by two records by any spelling, unless one of them is archived', async () => {
    await put('a.yml', 'name: A\nrepo: a/a\nimages:\n  - foo/shared\n')
    await put('b.yml', 'name: B\nrepo: b/b\nimages:\n  - ghcr.io/b/b\n  - docker.io/foo/shared\n')
    await put('old.yml', 'name: Old\nrepo: o/old\narchived: true\nsuccessor: a/a\nimages:\n  - foo/shared\n')
    const issues = await issuesOf()
    expect(issues.map((i) => `${path.basename(i.file)}:${i.line} ${i.field}: ${i.message}`)).toEqual([
      `a.yml:3 images: image foo/shared is mapped again by ${path.join(dir, 'apps', 'b.yml')} (as docker.io/foo/shared)`,
      `b.yml:3 images: image docker.io/foo/shared is already mapped by ${path.join(dir, 'apps', 'a.yml')} (as foo/shared): one image, one app`
    ])
  })

  it('rejects a successor that names the app itself', async () => {
    await put('self.yml', 'name: Self\nrepo: Foo/Self\narchived: true\nsuccessor: foo/self\n')
    await put('slug.yml', 'name: Slug\nrepo: foo/slug\narchived: true\nsuccessor: slug\n')
    const issues = await issuesOf()
    expect(issues.map((i) => `${path.basename(i.file)}:${i.line} ${i.field}`)).toEqual(['self.yml:4 successor', 'slug.yml:4 successor'])
    expect(issues[0]!.message).toMatch(/^names the app itself/)
  })

  it('rejects a file that is not UTF-8', async () => {
    await put('latin.yml', Buffer.from('name: Caf\xe9\nrepo: a/b\n', 'latin1'))
    const [issue] = await issuesOf()
    expect(formatIssue(issue!)).toBe(`${path.join(dir, 'apps', 'latin.yml')}:1:1: is not valid UTF-8 text`)
  })

  it('rejects an empty catalog and a catalog without apps/', async () => {
    expect((await issuesOf())[0]!.message).toContain('catalog is empty')
    const { dir: bare, cleanup: done } = await tempDir()
    // A folder has no line or column to point at.
    await expect(loadCatalog(bare)).rejects.toThrow(`${path.join(bare, 'apps')}: catalog has no apps/ directory`)
    await done()
  })

  it('refuses a record or an apps/ folder that is a symbolic link, and quotes nothing it points at', async () => {
    const { dir: outside, cleanup: done } = await tempDir()
    try {
      await writeFile(path.join(outside, 'secret'), 'token: hunter2\n')
      await mkdir(path.join(outside, 'apps'))
      await writeFile(path.join(outside, 'apps', 'x.yml'), 'name: X\nrepo: a/x\ncolour: hunter2\n')
      await put('good.yml', 'name: Good\nrepo: a/good\n')
      await symlink(path.join(outside, 'secret'), path.join(dir, 'apps', 'evil.yml'))
      const issues = await issuesOf()
      expect(issues.map(formatIssue)).toEqual([`${path.join(dir, 'apps', 'evil.yml')}:1:1: is a symbolic link; a record must be a regular file in the catalog`])
      const linked = path.join(outside, 'catalog')
      await mkdir(linked)
      await symlink(path.join(outside, 'apps'), path.join(linked, 'apps'))
      await expect(loadCatalog(linked)).rejects.toThrow(`${path.join(linked, 'apps')}: is a symbolic link; apps/ must be a directory in the catalog`)
    } finally {
      await done()
    }
  })

  it('rejects a record that is a list, not a mapping', async () => {
    await put('a.yml', '- name: A\n')
    expect((await issuesOf())[0]!.message).toContain('must be a YAML mapping')
  })
})
