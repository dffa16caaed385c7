// The bundled catalog records of the endoflife.date apps (issue 5 item 5) are
// valid and their lifecycle resolves offline from catalog/endoflife/. nginx has
// since been seeded from its release notes (issue 19 item 4) and keeps its product.
import { describe, expect, it } from '@jest/globals'
import { readFile, readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { buildLifecycle } from '../../src/lifecycle/index.js'
import { catalogEntrySchema } from '../../src/schema/index.js'
import { readStoredProduct } from '../../src/upstream/endoflife.js'
import { compareVersions } from '../../src/util/versions.js'

const APPS_DIR = fileURLToPath(new URL('../../catalog/apps/', import.meta.url))
const EOL_DIR = fileURLToPath(new URL('../../catalog/endoflife/', import.meta.url))

const REPOS: Record<string, string> = {
  nextcloud: 'nextcloud/server',
  mastodon: 'mastodon/mastodon',
  grafana: 'grafana/grafana',
  keycloak: 'keycloak/keycloak',
  authentik: 'goauthentik/authentik',
  mattermost: 'mattermost/mattermost',
  caddy: 'caddyserver/caddy',
  mariadb: 'MariaDB/server',
  postgresql: 'postgres/postgres',
  redis: 'redis/redis'
}

async function loadRecord(slug: string) {
  const text = await readFile(`${APPS_DIR}${slug}.yml`, 'utf8')
  return { text, entry: catalogEntrySchema.parse(parse(text)) }
}

describe('catalog records seeded from endoflife.date', () => {
  for (const [slug, repo] of Object.entries(REPOS)) {
    it(`${slug}: valid, seeded from the newest cycle, lifecycle resolves`, async () => {
      const { text, entry } = await loadRecord(slug)
      expect(entry.repo).toBe(repo)
      expect(entry.lifecycle?.product).toBe(slug)
      const release = entry.release!
      // The data holds no notes; none may be made up.
      expect(release).not.toHaveProperty('notes')
      expect(release.checked).toBe('2026-11-21')

      const doc = await readStoredProduct(EOL_DIR, slug)
      expect(doc).not.toBeNull()
      const newest = doc!.result.releases[0]!
      expect(entry.name).toBe(doc!.result.label)
      expect(release.version).toBe(newest.latest!.name)
      expect(release.date).toBe(newest.latest!.date)
      expect(release.url).toBe(newest.latest!.link)

      const { lifecycle, warning } = buildLifecycle(
        slug,
        doc!,
        release.version,
        new Date(`${release.checked}T00:00:00Z`)
      )
      expect(warning).toBeUndefined()
      expect(lifecycle?.cycle).toBe(newest.name)
      expect(lifecycle?.link).toBe(`https://endoflife.date/${slug}`)

      // Provenance comment before the data: repository, commit, file.
      const head = text.slice(0, text.indexOf('release:'))
      expect(head).toContain('https://github.com/endoflife-date/endoflife.date')
      expect(head).toContain('a70eca337600e7d721dc48112c271f98661d208b')
      expect(head).toContain(`products/${slug}.md`)
    })
  }

  it('every bundled record that names an endoflife.date product resolves offline', async () => {
    const files = (await readdir(APPS_DIR)).filter((f) => f.endsWith('.yml')).sort()
    const withProduct: string[] = []
    for (const file of files) {
      const slug = file.slice(0, -'.yml'.length)
      const { entry } = await loadRecord(slug)
      if (!entry.lifecycle || !entry.release) continue
      withProduct.push(slug)
      const doc = await readStoredProduct(EOL_DIR, entry.lifecycle.product)
      expect({ slug, stored: doc !== null }).toEqual({ slug, stored: true })
      const { lifecycle, warning } = buildLifecycle(
        entry.lifecycle.product,
        doc!,
        entry.release.version,
        new Date(`${entry.release.checked}T00:00:00Z`),
        { tagPrefix: entry.tagPrefix }
      )
      expect({ slug, warning, resolved: lifecycle !== null }).toEqual({ slug, warning: undefined, resolved: true })
    }
    expect(withProduct).toEqual(expect.arrayContaining([...Object.keys(REPOS), 'nginx']))
  })

  it('nginx: seeded from the release-notes data set, never older than the endoflife.date seed it replaced', async () => {
    const { text, entry } = await loadRecord('nginx')
    expect(entry.repo).toBe('nginx/nginx')
    expect(entry.lifecycle?.product).toBe('nginx')
    const doc = await readStoredProduct(EOL_DIR, 'nginx')
    expect(compareVersions(entry.release!.version, doc!.result.releases[0]!.latest!.name)).toBeGreaterThanOrEqual(0)
    expect(text.slice(0, text.indexOf('release:'))).toContain('entry "nginx@1.31.4"')
  })
})
