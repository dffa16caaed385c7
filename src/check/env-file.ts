// Image references in a `.env` file, as Dependabot's docker ecosystem bumps them: a line
// `NAME=image:tag` (or `image@sha256:…`, quoted or not, `export` allowed) whose whole value is an
// image reference with a tag or a digest. Any other line is a setting, not an image.
import { isWholeReference } from './mentions.js'
import type { FoundRef } from './refs.js'

const MAX_BYTES = 1024 * 1024

/** `.env`, `.env.production`, `app.env`, in any folder. */
export function isEnvFile(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1)
  return /^\.env(\..+)?$/i.test(base) || /^.+\.env$/i.test(base)
}

/** Each line whose value is an image reference, with its variable as the field; or why the file is not read. */
export function readEnvRefs(file: string, text: string): { refs: FoundRef[] } | { unreadable: string } {
  if (text.length > MAX_BYTES) return { unreadable: `is larger than the ${MAX_BYTES / (1024 * 1024)} MiB read` }
  if (text.includes('\0')) return { unreadable: 'holds a NUL byte: it is not a text file' }
  const refs: FoundRef[] = []
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const m = /^\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s#]*))\s*(?:#.*)?$/.exec(line)
    if (!m) continue
    const value = (m[2] ?? m[3] ?? m[4] ?? '').trim()
    if (!isWholeReference(value) || hostAndPort(m[1]!, value)) continue
    refs.push({ file, line: i + 1, image: value, field: m[1]! })
  }
  return { refs }
}

/** `HOST=db.local:5432`, `LISTEN=localhost:8080`: an address, shaped like an image but none. */
function hostAndPort(name: string, value: string): boolean {
  if (/(HOST|ADDR|ADDRESS|URL|URI|PORT|LISTEN|ENDPOINT|SERVER)$/i.test(name)) return true
  const host = value.split(':')[0]!
  return !value.includes('/') && (host === 'localhost' || host.includes('.')) && /^[^:]+:\d+$/.test(value)
}
