import { describe, expect, test } from '@jest/globals'
import { renderAtomFeed, type Feed } from '../../src/site/atom.js'
import { mintIdPrefix, recordFeedEntry } from '../../src/site/changes.js'
import { BASE, HOSTILE, REALISTIC, TEN_MB } from './fixtures.js'
import { child, parseXml } from './markup.js'

const ATOM = 'http://www.w3.org/2005/Atom'
const UPDATED = '2026-11-21T03:00:00.000Z'
const ID = mintIdPrefix(BASE, UPDATED)

function feedOf(entries: Feed['entries']): Feed {
  return {
    id: `${BASE}/feed.xml`,
    title: 'updatesafe: all changes',
    selfLink: `${BASE}/feed.xml`,
    alternateLink: `${BASE}/`,
    updated: UPDATED,
    entries
  }
}

describe('renderAtomFeed', () => {
  test('is well-formed Atom 1.0 with the required feed and entry elements, entries in the given order', () => {
    const entries = REALISTIC.map((p) => recordFeedEntry(p.record, UPDATED, ID))
    const root = parseXml(renderAtomFeed(feedOf(entries)))
    expect(root.name).toBe('feed')
    expect(root.attrs.xmlns).toBe(ATOM)
    for (const name of ['id', 'title', 'updated', 'author']) expect(child(root, name)).toBeDefined()
    expect(child(child(root, 'author')!, 'name')!.text).toBe('updatesafe')
    const links = root.children.filter((c) => c.name === 'link')
    expect(links.map((l) => l.attrs.rel)).toEqual(['self', 'alternate'])
    const got = root.children.filter((c) => c.name === 'entry')
    expect(got.map((e) => child(e, 'id')!.text)).toEqual(entries.map((e) => e.id))
    for (const e of got) {
      for (const name of ['id', 'title', 'updated', 'summary']) expect(child(e, name)).toBeDefined()
      expect(child(e, 'link')!.attrs.href).toMatch(/^https:\/\//)
    }
    expect(child(got[0]!, 'title')!.text).toBe('Gitea 1.23.5: caution')
  })

  test('hostile text is escaped, bounded and free of control and bidi characters', () => {
    const entries = HOSTILE.filter((p) => p.record.url.startsWith('https:')).map((p) =>
      recordFeedEntry(p.record, UPDATED, ID)
    )
    entries.push({
      id: `${BASE}/apps/x/#1`,
      title: '<script>\u202E\u0001',
      link: `${BASE}/apps/x/`,
      updated: UPDATED,
      summary: TEN_MB
    })
    const xml = renderAtomFeed(feedOf(entries))
    const root = parseXml(xml)
    expect(xml.length).toBeLessThan(20_000)
    expect(xml).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u0001]/)
    const titles = root.children.filter((c) => c.name === 'entry').map((e) => child(e, 'title')!.text)
    expect(titles).toContain('<script>')
    expect(xml).not.toContain('<script>')
  })

  test('refuses links that are not http(s), ids that are not IRIs and timestamps that are not RFC 3339', () => {
    const ok = recordFeedEntry(REALISTIC[0]!.record, UPDATED, ID)
    expect(() => renderAtomFeed(feedOf([{ ...ok, link: 'javascript:alert(1)' }]))).toThrow(/http\(s\)/)
    expect(() => renderAtomFeed(feedOf([{ ...ok, id: 'not an iri' }]))).toThrow(/IRI/)
    expect(() => renderAtomFeed(feedOf([{ ...ok, updated: '21 Nov 2026' }]))).toThrow(/RFC 3339/)
    expect(() => renderAtomFeed({ ...feedOf([]), selfLink: 'data:x' })).toThrow(/http\(s\)/)
  })

  test('an empty feed is valid, and output is deterministic', () => {
    const a = renderAtomFeed(feedOf([]))
    expect(parseXml(a).children.filter((c) => c.name === 'entry')).toHaveLength(0)
    expect(renderAtomFeed(feedOf([]))).toBe(a)
  })
})

describe('recordFeedEntry', () => {
  test('id changes with version or class and is stable otherwise', () => {
    const r = REALISTIC[0]!.record
    const a = recordFeedEntry(r, UPDATED, ID)
    expect(recordFeedEntry(r, '2026-12-01T00:00:00.000Z', ID).id).toBe(a.id)
    expect(recordFeedEntry({ ...r, latestVersion: '1.23.6' }, UPDATED, ID).id).not.toBe(a.id)
    expect(recordFeedEntry({ ...r, safeToUpdate: 'breaking' }, UPDATED, ID).id).not.toBe(a.id)
    expect(a.id).toBe('tag:example-owner.github.io,2026-11-21:/updatesafe/apps/gitea/1.23.5/caution')
  })
})
