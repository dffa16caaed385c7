// Image references written anywhere in a text the gate does not parse (a `.env` file, a script, a
// Terraform file): anything shaped `[registry/]name:tag` with a digit in the tag, or `name@sha256:…`.
// Loose on purpose: it only decides whether a changed file the gate does not read may have changed an
// image, and so must be listed as not read rather than pass unseen.

const NAME = String.raw`(?:[a-z0-9][a-z0-9.-]*(?::\d+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*`
const MENTION = new RegExp(
  String.raw`(?<![\w./:@-])(${NAME})(?::([\w][\w.-]{0,127}?))?(@sha256:[a-f0-9]{64})?(?![\w/:@-]|\.[\w])`,
  'g'
)

/** The image references a text mentions, each as often as it does. */
export function imageMentions(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(MENTION)) {
    const [all, name, tag, digest] = m
    if (!/[a-z]/.test(name!)) continue
    if ((tag !== undefined && /\d/.test(tag)) || digest !== undefined) out.push(all)
  }
  return out
}

/** Whether `text` is one image reference with a tag or digest, and nothing else (`nginx:1.27`, not `none`). */
export function isWholeReference(text: string): boolean {
  const found = imageMentions(text)
  return found.length === 1 && found[0] === text
}

/** The mentions one text has and the other has not (counted: one of two copies bumped is a change). */
export function changedMentions(before: string, after: string): string[] {
  const count = new Map<string, number>()
  for (const m of imageMentions(before)) count.set(m, (count.get(m) ?? 0) + 1)
  for (const m of imageMentions(after)) count.set(m, (count.get(m) ?? 0) - 1)
  return [...count].filter(([, n]) => n !== 0).map(([m]) => m)
}
