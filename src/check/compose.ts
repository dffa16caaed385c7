// Docker Compose files, read for one thing: each service's `image:` and the line it is on.
// A file that is not YAML, has no services, or leaves an image to `${VAR}` interpolation is a bad
// input, named by file and line: `check` never guesses what a variable would have been.
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml'
import { ProblemsError, type Problem } from '../util/problems.js'

export interface ComposeService {
  file: string
  service: string
  line: number
  /** The image reference as written, or null for a service built from source (`build:` only). */
  image: string | null
}

/** Compose files are small; a megabyte is far past any real one. */
const MAX_BYTES = 1024 * 1024
// Compose interpolates $VAR and ${VAR}; $$ is a literal dollar.
const INTERPOLATION = /(?<!\$)(?:\$\$)*\$(?:\{|[A-Za-z_])/

function bad(problems: Problem[]): ProblemsError {
  return new ProblemsError('bad-input', problems, problems.map((p) => p.message).join('; '))
}

/** The services of one Compose file, in the file's order. */
export function readCompose(file: string, text: string): ComposeService[] {
  if (text.length > MAX_BYTES) throw bad([{ file, message: `is larger than ${MAX_BYTES} bytes: not a Compose file` }])
  const lc = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true })
  const lineOf = (node: YamlNode | null | undefined) => lc.linePos(node?.range?.[0] ?? 0).line
  if (doc.errors.length > 0) {
    throw bad(
      doc.errors.map((e) => {
        const pos = lc.linePos(e.pos[0])
        return { file, line: pos.line, column: pos.col, message: `is not YAML: ${e.message.split('\n')[0]}` }
      })
    )
  }
  const root = doc.contents
  if (!isMap(root))
    throw bad([{ file, line: lineOf(root), message: 'is not a Compose file: its top level is not a mapping' }])
  const services = root.get('services', true)
  if (!isMap(services) || services.items.length === 0)
    throw bad([
      { file, line: lineOf(services ?? root), message: 'has no services: a Compose file lists them under "services:"' }
    ])
  const out: ComposeService[] = []
  const problems: Problem[] = []
  for (const pair of services.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '?'
    const line = lineOf(pair.key as YamlNode)
    if (!isMap(pair.value)) {
      problems.push({ file, line, field: `services.${name}`, message: 'is not a mapping' })
      continue
    }
    const image = pair.value.get('image', true)
    if (image === undefined) {
      out.push({ file, service: name, line, image: null })
      continue
    }
    if (!isScalar(image) || typeof image.value !== 'string') {
      problems.push({
        file,
        line: lineOf(image as YamlNode),
        field: `services.${name}.image`,
        message: 'is not a string'
      })
      continue
    }
    if (INTERPOLATION.test(image.value)) {
      problems.push({
        file,
        line: lineOf(image),
        field: `services.${name}.image`,
        message: `uses \${VAR} interpolation (${JSON.stringify(image.value.slice(0, 120))}): write the image out, e.g. with "docker compose config" first`
      })
      continue
    }
    out.push({ file, service: name, line: lineOf(image), image: image.value })
  }
  if (problems.length > 0) throw bad(problems)
  return out
}
