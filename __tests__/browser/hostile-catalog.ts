// A catalog of valid records full of what strangers can put in names, tags and
// release notes: script and handler injection, javascript: links, markup that
// tries to break out of SVG/XML, control characters, bidi overrides and 10 MB
// of notes. Written at test time so nothing hostile lives in the repository.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'yaml'

const CHECKED = '2026-11-21'
/** A YAML double-quoted scalar (JSON strings are valid ones), so any character can be written escaped. */
const q = (s: string) => JSON.stringify(s)

const BIDI = '\u202Egnp.exe\u202C \u2066isolate\u2069 \u200Fx'
const CONTROLS = '\u0001\u0007\u001B[31m\u007F\u0085'

export interface HostileApp {
  slug: string
  yaml: string
  /** Its release notes, for the notes file beside the catalog (records hold facts only). */
  notes: string
}

const XSS_NOTES = `## Breaking changes
- <script>window.__pwned=1</script> removed
- <img src=x onerror="window.__pwned=2"> changed
- [read the guide](javascript:window.__pwned=3) before updating
- <a href="javascript:window.__pwned=4">click</a> and <svg onload="window.__pwned=5"></svg>
- [data](data:text/html,<script>window.__pwned=6</script>) <iframe src="javascript:window.__pwned=7"></iframe>
- <style>body{display:none}</style> <meta http-equiv="refresh" content="0;url=javascript:window.__pwned=8">
- ![x](javascript:window.__pwned=9) <javascript:window.__pwned=10>

## Security
\`\`\`html
<script>window.__pwned=11</script>
\`\`\``

const XML_NOTES = `## Upgrade notes
]]></title><script>window.__pwned=12</script><title>
<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;
<![CDATA[ <svg onload="window.__pwned=13"/> ]]> &amp; &#x3C;script&#x3E; &lt;script&gt;
</summary></entry><entry><title>forged</title></entry></feed>`

/** About 10 MB of notes in one line of the notes file; a build cuts notes to a bounded prefix. */
export const HUGE_LINE = 'A<script>window.__pwned=14</script> breaking change: <img src=x onerror="window.__pwned=15"> '
export function hugeNotes(): string {
  return Array.from({ length: Math.ceil((10 * 1024 * 1024) / (HUGE_LINE.length + 1)) }, () => HUGE_LINE).join('\n')
}

export function hostileApps(): HostileApp[] {
  return [
    {
      slug: 'xss-script',
      yaml: `name: ${q('<script>window.__pwned=1</script>')}
repo: evil/xss-script
release:
  version: ${q('<svg/onload=window.__pwned=16>')}
  url: ${q('https://example.com/notes?a=1&b="><script>window.__pwned=17</script>')}
  date: 2026-11-01
  checked: ${CHECKED}
`,
      notes: XSS_NOTES
    },
    {
      slug: 'xss-img',
      yaml: `name: ${q('<img src=x onerror="window.__pwned=2">')}
repo: evil/xss-img
override:
  class: caution
  reason: ${q('<script>window.__pwned=18</script> [x](javascript:window.__pwned=19)')}
  version: ${q('"/><script>window.__pwned=20</script>')}
release:
  version: ${q('"/><script>window.__pwned=20</script>')}
  url: https://example.com/xss-img
  checked: ${CHECKED}
`,
      notes: XSS_NOTES
    },
    {
      slug: 'xml-injection',
      yaml: `name: ${q(']]></title><script>window.__pwned=12</script>')}
repo: evil/xml-injection
release:
  version: ${q(']]></text><script>window.__pwned=21</script>')}
  url: https://example.com/xml
  checked: ${CHECKED}
`,
      notes: XML_NOTES
    },
    {
      slug: 'bidi-controls',
      // validate refuses them in the name; notes are upstream's text, published cleaned.
      yaml: `name: Bidi controls app
repo: evil/bidi
release:
  version: v1.0-rc.1+build
  url: https://example.com/bidi
  checked: ${CHECKED}
`,
      notes: `## Breaking changes\n- ${BIDI} ${CONTROLS} [x](javascript:window.__pwned=22)\n`
    },
    {
      slug: 'dead-hostile',
      yaml: `name: Dead hostile
repo: evil/dead
archived: true
successor: ${q('javascript:window.__pwned=23')}
release:
  version: v0.1
  url: https://example.com/dead
  checked: ${CHECKED}
`,
      notes: '<script>window.__pwned=24</script>'
    },
    {
      slug: 'huge-notes',
      yaml: `name: Huge notes
repo: evil/huge
release:
  version: 1.0.0
  url: https://example.com/huge
  checked: ${CHECKED}
`,
      notes: hugeNotes()
    }
  ]
}

/**
 * Write `<dir>/apps/<slug>.yml` for every hostile app, and their notes as the JSON lines of `<dir>/notes.jsonl`
 * (the shape `build --notes-from` reads), each under its record's repository and version; returns the slugs.
 */
export async function writeHostileCatalog(dir: string): Promise<string[]> {
  const apps = hostileApps()
  await mkdir(path.join(dir, 'apps'), { recursive: true })
  const lines: string[] = []
  for (const a of apps) {
    await writeFile(path.join(dir, 'apps', `${a.slug}.yml`), a.yaml)
    const record = parse(a.yaml) as { repo: string; release: { version: string } }
    lines.push(JSON.stringify({ repo: record.repo, version: record.release.version, notes: a.notes }))
  }
  await writeFile(path.join(dir, HOSTILE_NOTES), `${lines.join('\n')}\n`)
  return apps.map((a) => a.slug)
}

/** The notes file's name inside the hostile catalog's folder. */
export const HOSTILE_NOTES = 'notes.jsonl'
