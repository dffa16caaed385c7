// Records for the render tests. The realistic ones name real apps and releases (versions and dates are facts);
// their rationales and summaries are written here in the shape the classifier gives, not copied from the notes.
// The hostile ones carry what strangers could put in names, tags and notes.
import type { AppRecord, Lifecycle } from '../../src/schema/index.js'
import type { PageInput, SiteContext } from '../../src/site/pages.js'

export const BASE = 'https://example-owner.github.io/updatesafe'
export const CTX: SiteContext = { generatedAt: '2026-11-21T03:00:00.000Z' }

type Fields = Omit<AppRecord, 'url' | 'badge' | 'lifecycle' | 'successor' | 'changelogSummary'> &
  Partial<Pick<AppRecord, 'lifecycle' | 'successor' | 'changelogSummary'>>

export function record(f: Fields, base = BASE): AppRecord {
  return {
    changelogSummary: null,
    successor: null,
    lifecycle: null,
    ...f,
    url: `${base}/apps/${f.slug}/`,
    badge: `${base}/badge/${f.slug}.svg`
  }
}

function page(r: AppRecord, extra: Partial<Omit<PageInput, 'record'>> = {}): PageInput {
  return {
    record: r,
    releaseDate: null,
    releasesConsidered: [r.latestVersion],
    rule: null,
    decidedBy: null,
    stale: false,
    ...extra
  }
}

const traefikLifecycle: Lifecycle = {
  product: 'traefik',
  link: 'https://endoflife.date/traefik',
  cycle: '3.7',
  eol: false,
  status: 'supported',
  eolDate: null
}
const prometheusLifecycle: Lifecycle = {
  product: 'prometheus',
  link: 'https://endoflife.date/prometheus',
  cycle: '3.14',
  eol: '2026-09-30',
  status: 'eol',
  eolDate: '2026-09-30'
}
const nextcloudLikeLifecycle: Lifecycle = {
  product: 'gitea',
  link: 'https://endoflife.date/gitea',
  cycle: '1.23',
  eol: '2027-01-10',
  status: 'eol-scheduled',
  eolDate: '2027-01-10'
}

export const REALISTIC: PageInput[] = [
  page(
    record({
      slug: 'gitea',
      name: 'Gitea',
      repo: 'go-gitea/gitea',
      latestVersion: '1.23.5',
      safeToUpdate: 'caution',
      rationale:
        'Release 1.23.5 has a "SECURITY" section: "Bump x/oauth2 & x/crypto (#33704)". Read it before updating.',
      changelogSummary:
        'SECURITY: Bump x/oauth2 & x/crypto. PERFORMANCE: Optimize user dashboard loading. BUGFIXES: Fix navbar dropdown item align; Fix inconsistent closed issue list icon.',
      sourceUrl: 'https://github.com/go-gitea/gitea/releases/tag/v1.23.5',
      lastChecked: '2026-11-21',
      lifecycle: nextcloudLikeLifecycle
    }),
    {
      releaseDate: '2025-03-03',
      releasesConsidered: ['1.23.4', '1.23.5'],
      rule: 'security-section',
      decidedBy: '1.23.5'
    }
  ),
  page(
    record({
      slug: 'traefik',
      name: 'Traefik',
      repo: 'traefik/traefik',
      latestVersion: 'v3.7.9',
      safeToUpdate: 'safe',
      rationale: 'The notes of v3.7.8 and v3.7.9 list only "Bug fixes"; no breaking change, migration or manual step.',
      changelogSummary:
        'Bug fixes: Fix redirects with regex paths in the Demo provider; Turn off Brotli in the compression wrapper; Hold the request body until the backend accepts the tunnel.',
      sourceUrl: 'https://github.com/traefik/traefik/releases/tag/v3.7.9',
      lastChecked: '2026-11-20',
      lifecycle: traefikLifecycle
    }),
    { releaseDate: '2026-07-24', releasesConsidered: ['v3.7.8', 'v3.7.9'], stale: true }
  ),
  page(
    record({
      slug: 'prometheus',
      name: 'Prometheus',
      repo: 'prometheus/prometheus',
      latestVersion: '3.14.0',
      safeToUpdate: 'caution',
      rationale:
        'Release 3.14.0 deprecates behaviour: "[CHANGE] API: Deprecate the `demo` query parameter of `/api/v1/query`".',
      changelogSummary:
        'CHANGE: API: Deprecate the demo query parameter of /api/v1/query for any value but true.',
      sourceUrl: 'https://github.com/prometheus/prometheus/releases/tag/v3.14.0',
      lastChecked: '2026-11-21',
      lifecycle: prometheusLifecycle
    }),
    { releaseDate: '2026-08-17', rule: 'deprecation', decidedBy: '3.14.0' }
  ),
  page(
    record({
      slug: 'firefly-iii',
      name: 'Firefly III',
      repo: 'firefly-iii/firefly-iii',
      latestVersion: 'v6.6.6',
      safeToUpdate: 'breaking',
      rationale:
        'Release v6.6.6 is an urgent fix: "Version v6.6.6 fixes a bug of v6.6.5 that could drop the currency of new deposits."',
      changelogSummary: 'Fixed: a bug of v6.6.5 that could drop the currency of new deposits.',
      sourceUrl: 'https://github.com/firefly-iii/firefly-iii/releases/tag/v6.6.6',
      lastChecked: '2026-11-21'
    }),
    { releaseDate: '2026-07-01', releasesConsidered: ['v6.6.5', 'v6.6.6'], rule: 'urgent-fix', decidedBy: 'v6.6.6' }
  ),
  page(
    record({
      slug: 'linkding',
      name: 'linkding',
      repo: 'sissbruecker/linkding',
      latestVersion: 'v1.46.2',
      safeToUpdate: 'safe',
      rationale:
        'The notes of v1.46.2 list fixes only ("Draw the tag marker with CSS so that themes can hide it"); nothing to do by hand.',
      changelogSummary: "What's Changed: Draw the tag marker with CSS so that themes can hide it; Fix tag matching.",
      sourceUrl: 'https://github.com/sissbruecker/linkding/releases/tag/v1.46.2',
      lastChecked: '2026-11-21'
    }),
    { releaseDate: '2026-08-18' }
  ),
  page(
    record({
      slug: 'kimai',
      name: 'Kimai',
      repo: 'kimai/kimai',
      latestVersion: '2.66.0',
      safeToUpdate: 'unknown',
      rationale: 'The full assessment is pending: the release notes could not be read yet.',
      sourceUrl: 'https://github.com/kimai/kimai/releases/tag/2.66.0',
      lastChecked: '2026-11-21'
    })
  ),
  page(
    record({
      slug: 'watchtower',
      name: 'Watchtower',
      repo: 'containrrr/watchtower',
      latestVersion: 'v1.7.1',
      safeToUpdate: 'unmaintained',
      rationale: 'The repository is archived (read-only): "This project is no longer maintained".',
      sourceUrl: 'https://github.com/containrrr/watchtower/releases/tag/v1.7.1',
      lastChecked: '2026-11-21',
      successor: 'nicholas-fedor/watchtower'
    }),
    { releaseDate: '2023-11-11' }
  ),
  page(
    record({
      slug: 'synapse-legacy',
      name: 'Synapse (matrix-org)',
      repo: 'matrix-org/synapse',
      latestVersion: 'v1.98.0',
      safeToUpdate: 'unmaintained',
      rationale: 'The repository is archived: "Synapse is now actively maintained at element-hq/synapse".',
      sourceUrl: 'https://github.com/matrix-org/synapse/releases/tag/v1.98.0',
      lastChecked: '2026-11-21',
      successor: 'element-hq/synapse'
    }),
    { releaseDate: '2023-12-12' }
  )
]

const BIDI = '\u202E\u2066\u2067\u2068\u2069\u202A\u202B\u202C\u202D'
const CONTROLS = '\u0000\u0001\u0007\u0008\u000B\u000C\u001B\u007F\u0085\u009B'
export const TEN_MB = 'A<script>window.__pwned=1</script>'.repeat(Math.ceil((10 * 1024 * 1024) / 34))

/** Not schema-valid on purpose: the renderer must not rely on validation. */
export const HOSTILE: PageInput[] = [
  page(
    record({
      slug: 'xss-name',
      name: '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">',
      repo: 'evil/"><script>window.__pwned=1</script>',
      latestVersion: '<svg/onload=window.__pwned=1>',
      safeToUpdate: 'breaking',
      rationale: `Breaking: "</p><script>window.__pwned=1</script>" and <a href="javascript:window.__pwned=1">click</a> ${BIDI}evil${CONTROLS}`,
      changelogSummary: ']]><!-- <![CDATA[ <svg onload="window.__pwned=1"/> ]]> --> &amp; &#x3C;script&#x3E;',
      sourceUrl: 'javascript:window.__pwned=1',
      lastChecked: '2026-11-21',
      successor: '"><img src=x onerror=window.__pwned=1>',
      lifecycle: {
        product: '<b>x</b>',
        link: 'javascript:window.__pwned=1',
        cycle: '<i>1</i>',
        eol: '2020-01-01',
        status: 'eol',
        eolDate: '2020-01-01'
      }
    }),
    {
      releaseDate: '<script>',
      releasesConsidered: ['<svg onload=window.__pwned=1>', `v1${BIDI}`],
      rule: '<script>window.__pwned=1</script>',
      decidedBy: '<svg onload=window.__pwned=1>'
    }
  ),
  page(
    {
      ...record({
        slug: 'huge-text',
        name: `${BIDI}Huge${CONTROLS} \uD800 name ${'x'.repeat(5000)}`,
        repo: 'evil/huge',
        latestVersion: `1.0.0${CONTROLS}${BIDI}`,
        safeToUpdate: 'safe',
        rationale: TEN_MB,
        changelogSummary: TEN_MB,
        sourceUrl: 'data:text/html,<script>window.__pwned=1</script>',
        lastChecked: 'yesterday<script>'
      }),
      url: 'javascript:window.__pwned=1',
      badge: 'javascript:window.__pwned=1'
    },
    { releasesConsidered: Array.from({ length: 500 }, (_, i) => `v${i}<b>`) }
  ),
  page(
    record({
      slug: 'xml-injection',
      name: 'Badge ]]></text><script>window.__pwned=1</script><text>',
      repo: 'evil/xml',
      latestVersion: '"/><script>window.__pwned=1</script>',
      safeToUpdate: 'unknown',
      rationale: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;',
      sourceUrl: 'https://example.com/notes?a=1&b="><script>window.__pwned=1</script>',
      lastChecked: '2026-11-21',
      successor: 'vbscript:msgbox(1)'
    })
  )
]
