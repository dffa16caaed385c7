// The documentation a newcomer reads: every relative link in it resolves (the file, and the heading an #anchor
// names, by GitHub's slug rules), and the README stays short enough to read on a few screens.
import { describe, expect, it } from '@jest/globals'
import { Parser, type Node } from 'commonmark'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const README_MAX_BYTES = 10 * 1024

/** The Markdown files the tests hold: the README, the changelog, docs/**, CONTRIBUTING and each folder's README. */
function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []
    )
  const top = [
    'README.md',
    'CHANGELOG.md',
    'CONTRIBUTING.md',
    'bench/README.md',
    'demo/README.md',
    'template/README.md',
    'catalog/endoflife/README.md'
  ].filter((f) => existsSync(f))
  return [...top, ...(existsSync('docs') ? walk('docs') : [])]
}

/** The text of a heading as GitHub slugs it: its text and code spans, without the markup around them. */
function plainText(node: Node): string {
  let text = ''
  const walker = node.walker()
  for (let step = walker.next(); step; step = walker.next())
    if (step.entering && (step.node.type === 'text' || step.node.type === 'code')) text += step.node.literal ?? ''
  return text
}

/**
 * GitHub's heading anchors: lower case, every character that is not a letter, a digit, a space, `-` or `_`
 * dropped, each space a hyphen; a repeated slug gets `-1`, `-2`, … in order.
 */
function slugs(headings: string[]): string[] {
  const seen = new Map<string, number>()
  return headings.map((h) => {
    const base = h
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base)
    seen.set(base, (n ?? -1) + 1)
    return n === undefined ? base : `${base}-${n + 1}`
  })
}

interface Parsed {
  anchors: Set<string>
  links: string[]
}

function parse(file: string): Parsed {
  const root = new Parser().parse(readFileSync(file, 'utf8'))
  const headings: string[] = []
  const links: string[] = []
  const ids: string[] = []
  const walker = root.walker()
  for (let step = walker.next(); step; step = walker.next()) {
    if (!step.entering) continue
    const node = step.node
    if (node.type === 'heading') headings.push(plainText(node))
    else if ((node.type === 'link' || node.type === 'image') && node.destination) links.push(node.destination)
    else if (node.type === 'html_block' || node.type === 'html_inline') {
      const html = node.literal ?? ''
      for (const m of html.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push(m[1]!)
      for (const m of html.matchAll(/\b(?:id|name)="([^"]+)"/g)) ids.push(m[1]!)
    }
  }
  return { anchors: new Set([...slugs(headings), ...ids]), links }
}

/** Links that leave the repository (a scheme, or `//host`) are not checked: tests run without a network. */
const isExternal = (link: string) => /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')

/** Every broken relative link of the given files, as `file: link (why)`. */
function brokenLinks(files: string[]): string[] {
  const cache = new Map<string, Parsed>()
  const parsed = (f: string) => cache.get(f) ?? cache.set(f, parse(f)).get(f)!
  const broken: string[] = []
  for (const file of files) {
    for (const link of parsed(file).links) {
      if (isExternal(link)) continue
      const hash = link.indexOf('#')
      const target = decodeURIComponent(hash < 0 ? link : link.slice(0, hash))
      const anchor = hash < 0 ? null : decodeURIComponent(link.slice(hash + 1))
      const resolved = target === '' ? file : path.join(path.dirname(file), target)
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${link} (no file ${resolved})`)
        continue
      }
      if (anchor === null) continue
      if (!resolved.endsWith('.md') || statSync(resolved).isDirectory())
        broken.push(`${file}: ${link} (an anchor into ${resolved}, which is not a Markdown file)`)
      else if (!parsed(resolved).anchors.has(anchor))
        broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`)
    }
  }
  return broken
}

describe('documentation', () => {
  it('slugs headings as GitHub does', () => {
    expect(
      slugs(['The API', '`check`: is it safe?', 'Run your own catalog', 'The API', 'Upgrade notes — 1.0'])
    ).toEqual(['the-api', 'check-is-it-safe', 'run-your-own-catalog', 'the-api-1', 'upgrade-notes--10'])
  })

  it('finds a missing file and a missing heading, and passes over addresses on the web', () => {
    const dir = path.join('__tests__', 'fixtures', 'docs-links')
    expect(brokenLinks([path.join(dir, 'page.md')]).map((b) => b.replace(dir + path.sep, ''))).toEqual([
      'page.md: missing.md (no file __tests__/fixtures/docs-links/missing.md)',
      'page.md: other.md#nowhere (no heading #nowhere in __tests__/fixtures/docs-links/other.md)',
      'page.md: #not-here (no heading #not-here in __tests__/fixtures/docs-links/page.md)'
    ])
  })

  it('has no broken relative link in the README, the changelog, docs/, CONTRIBUTING.md or a folder README', () => {
    const files = documents()
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'bench/README.md']))
    expect(brokenLinks(files)).toEqual([])
  })

  it('keeps the README within 10 KB', () => {
    expect(statSync('README.md').size).toBeLessThanOrEqual(README_MAX_BYTES)
  })

  it('links every page of docs/, the changelog and CONTRIBUTING.md from the README', () => {
    const readme = parse('README.md').links.map((l) => path.normalize(l.split('#')[0]!))
    const pages = [
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join('docs', f)),
      'CHANGELOG.md',
      'CONTRIBUTING.md'
    ]
    expect(pages).toEqual(expect.arrayContaining(['docs/api.md', 'docs/catalog.md', 'docs/operating.md']))
    for (const page of pages) expect([page, readme.includes(page)]).toEqual([page, true])
  })
})
