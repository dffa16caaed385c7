// Image versions Renovate bumps through its regex-manager convention instead of an image field: a comment
// `# renovate: datasource=docker depName=ghcr.io/siderolabs/kubelet` over the line that sets the version
// (`kubernetesVersion: v1.31.0`, `ARG NODE_VERSION=22.1.0`, `export KUBELET_VERSION="v1.31.0"`). Such a
// pair is the image `depName:version`, on the version's line. Other datasources (GitHub releases, Helm
// charts) name no image and are left alone.
import { isWholeReference } from './mentions.js'
import type { FoundRef } from './refs.js'

const COMMENT = /^\s*(?:#|\/\/)\s*renovate:\s*(.*)$/
/** `key: value`, `KEY=value`, with `- `, `export`, `ARG` or `ENV` before, quotes and a trailing comment around. */
// One run of spaces after the `:` or `=`: two in a row (`:\s*` then `\s*`) made a line of spaces cost time in the
// square of its length, which a pull request's text must never do.
const SETTING = /^\s*(?:-\s+)?(?:(?:export|ARG|ENV)\s+)?([\w.-]+)\s*[:=]\s*(["']?)([^\s"'#]+)\2\s*(?:#.*)?$/

/** The images a file's Renovate comments name with the version below each; a version that is a whole reference is not one. */
export function renovateRefs(file: string, text: string): FoundRef[] {
  const lines = text.split(/\r?\n/)
  const out: FoundRef[] = []
  for (let i = 0; i + 1 < lines.length; i++) {
    const m = COMMENT.exec(lines[i]!)
    if (!m) continue
    const fields = new Map<string, string>()
    for (const kv of m[1]!.trim().split(/\s+/)) {
      const eq = kv.indexOf('=')
      if (eq > 0) fields.set(kv.slice(0, eq), kv.slice(eq + 1))
    }
    if (fields.get('datasource') !== 'docker') continue
    const name = fields.get('packageName') ?? fields.get('depName')
    const v = SETTING.exec(lines[i + 1]!)
    // A value that holds a name (`image: x:1.2`) is the file's own reference, read where the file's kind reads it.
    if (!name || !v || /[/:]/.test(v[3]!.split('@')[0]!)) continue
    const image = `${name}:${v[3]}`
    if (!isWholeReference(image)) continue
    out.push({ file, line: i + 2, image, field: `${v[1]} (renovate: ${name.slice(0, 120)})` })
  }
  return out
}

/** `refs` and the Renovate comments' images on lines none of `refs` is on (a Dockerfile's ARG is read once). */
export function withRenovateRefs(file: string, text: string, refs: readonly FoundRef[]): FoundRef[] {
  const lines = new Set(refs.map((r) => r.line))
  const more = renovateRefs(file, text).filter((r) => !lines.has(r.line))
  return more.length === 0 ? [...refs] : [...refs, ...more].sort((a, b) => a.line - b.line)
}
