// Image references in any YAML a self-hoster keeps in git — Compose files, Kubernetes manifests,
// Helm values, Flux HelmRelease values, Kustomize `images:` — each with its line: `image: name:tag`
// anywhere (and `imageName:`, `sidecarImage:`, `nextcloud_image:` holding a whole reference), the Helm
// form `repository:` (+ `registry:`) + `tag:` in one mapping (or `name:` + `tag:` under an `image:` key), and Kustomize's `name`/`newName` + `newTag`/`digest`. Values that set an
// image's tag alone leave its name to the chart: found, not readable. A reference left to a template
// (`${VAR}`, `{{ .Values }}`) is found but not readable, and says so.
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node as YamlNode } from 'yaml'
import { isWholeReference } from './mentions.js'

export interface FoundRef {
  file: string
  /** The line a version bump changes: the `tag:` when the reference has one, else the `image:`. */
  line: number
  /** `name[:tag][@digest]` as written (Helm's parts joined), or null when a template leaves it open. */
  image: string | null
  /** Where: `services.app.image`; in a manifest, its kind and name first (`Deployment/gogs:spec.…`). */
  field: string
  /** Why `image` is null. */
  unreadable?: string
}

/** Larger than any real manifest; a file past it is not read. */
const MAX_BYTES = 1024 * 1024
const TEMPLATE = /\$\{|\$[A-Za-z_]|\{\{/
/**
 * Keys other than `image:` that operators give a whole image reference: CloudNativePG's `imageName:`, camelCase
 * `…Image:` (`sidecarImage:`, `initImage:`) and snake-case `…_image:` (Ansible's `nextcloud_image:`). Renovate
 * bumps them; a gate that did not read them would pass the bump.
 */
const NAMED_IMAGE =
  /^(?:imageName|[a-z][A-Za-z0-9]*Image(?:Name)?|[A-Za-z][A-Za-z0-9_]*_(?:image|IMAGE)(?:_name|_NAME)?)$/

const scalarText = (n: unknown): string | null =>
  isScalar(n) && (typeof n.value === 'string' || typeof n.value === 'number') ? String(n.value).trim() : null

/** Every image reference in one YAML file (all of its documents), in the file's order; [] for a file that is not YAML. */
export function findImageRefs(file: string, text: string): FoundRef[] {
  const read = readImageRefs(file, text)
  return 'refs' in read ? read.refs : []
}

/**
 * Every image reference in one YAML file, or why the file cannot be read: too large, not text, or
 * not YAML (a duplicate key, a bad indent) in any of its documents. The gate counts such a file as
 * unknown: what it did not read may hold an image.
 */
export function readImageRefs(file: string, text: string): { refs: FoundRef[] } | { unreadable: string } {
  if (text.length > MAX_BYTES) return { unreadable: `is larger than the ${MAX_BYTES / (1024 * 1024)} MiB read` }
  if (text.includes('\0')) return { unreadable: 'holds a NUL byte: it is not a text file' }
  const lc = new LineCounter()
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false })
  if (!Array.isArray(docs)) return { refs: [] } // an empty stream: no document, no image
  for (const doc of docs) {
    const e = doc.errors[0]
    if (e) {
      const pos = lc.linePos(e.pos[0])
      return { unreadable: `is not YAML: line ${pos.line}: ${e.message.split('\n')[0]!.slice(0, 200)}` }
    }
  }
  const lineOf = (n: unknown) => lc.linePos((n as YamlNode | undefined)?.range?.[0] ?? 0).line
  const out: FoundRef[] = []
  const add = (field: string, lineNode: unknown, image: string) => {
    const ref: FoundRef = { file, line: lineOf(lineNode), image, field }
    if (TEMPLATE.test(image))
      out.push({ ...ref, image: null, unreadable: `a template decides it (${image.slice(0, 120)})` })
    else out.push(ref)
  }
  const walk = (node: unknown, field: string, depth: number): void => {
    if (depth > 64) return
    if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, `${field}[${i}]`, depth + 1))
      return
    }
    if (!isMap(node)) return
    const at = (k: string) => `${field && !field.endsWith(':') ? `${field}.` : field}${k}`
    // Kustomize's `images:` entries: `name` is the image the manifests name; `newName`, `newTag`, `digest` what runs.
    const kustomized = ['newTag', 'newName', 'digest'].some((k) => node.has(k)) && /images\[\d+\]$/.test(field)
    if (kustomized) {
      const name = scalarText(node.get('newName', true)) ?? scalarText(node.get('name', true))
      const tagNode = node.get('newTag', true)
      const tag = scalarText(tagNode)
      const digest = scalarText(node.get('digest', true))
      if (name)
        add(
          at('name'),
          tag ? tagNode : node.get('name', true),
          `${name}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`
        )
      return
    }
    // Charts that name the image `image.name` (+ `tag:`) instead of `image.repository`: the same reference.
    const key = field.replace(/^.*[.:]/, '')
    const nameKey = !node.has('repository') && /image$/i.test(key) ? 'name' : 'repository'
    const repository = scalarText(node.get(nameKey, true))
    if (repository !== null && repository !== '' && !repository.includes('://')) {
      // Helm: registry + repository + tag (or a digest), each optional but the repository.
      const registry = scalarText(node.get('registry', true))
      const tagNode = node.get('tag', true)
      const tag = scalarText(tagNode)
      const digest = scalarText(node.get('digest', true))
      const name = registry ? `${registry}/${repository}` : repository
      const image = `${name}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`
      add(at(nameKey), tag ? tagNode : node.get(nameKey, true), image)
    } else if (/image$/i.test(key) && node.has('tag') && !node.has(nameKey) && scalarText(node.get('tag', true))) {
      // Values that set only the tag (`image: {tag: 1.2.3}`): the image's name is in the chart's own defaults.
      out.push({
        file,
        line: lineOf(node.get('tag', true)),
        image: null,
        field: at('tag'),
        unreadable: `only the tag (${scalarText(node.get('tag', true))!.slice(0, 60)}) is here: the image's name is in the chart's defaults, which the gate does not read`
      })
    }
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?'
      const here = field && !field.endsWith(':') ? `${field}.${key}` : `${field}${key}`
      const image = key === 'image' || NAMED_IMAGE.test(key) ? scalarText(pair.value) : null
      // Under another key than `image:`, only a whole reference with a tag or digest is one: `defaultImage: none` is not.
      const whole = key === 'image' || (image !== null && isWholeReference(image))
      if (image !== null && image !== '' && whole) add(here, pair.value, image)
      else walk(pair.value, here, depth + 1)
    }
  }
  // Each document is named by its kind and name where it has them (a manifest), else by its place:
  // two Deployments in one file both hold spec.template.spec.containers[0].image.
  docs.forEach((doc, i) => {
    const root = doc.contents
    const kind = isMap(root) ? scalarText(root.get('kind', true)) : null
    const meta = isMap(root) ? root.get('metadata', true) : null
    const name = isMap(meta) ? scalarText(meta.get('name', true)) : null
    const prefix = kind && name ? `${kind}/${name}:` : docs.length > 1 ? `#${i + 1}:` : ''
    walk(root, prefix, 0)
  })
  return { refs: out }
}
