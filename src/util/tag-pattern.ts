// A catalog's `tagPattern` runs against every tag upstream publishes, and upstream
// chooses the tags: on a backtracking engine `^(\d+\.?)+$` and forty `1`s followed
// by `x` take hours. Patterns therefore run on RE2JS, a port of RE2 that matches in
// time linear in the tag, and RE2 syntax is what `validate` accepts (no lookaround,
// no backreferences: the features that need backtracking).
import { RE2JS } from 're2js'

const compiled = new Map<string, RE2JS>()

/** Why a pattern cannot be used, or null when it compiles. */
export function tagPatternError(source: string): string | null {
  try {
    RE2JS.compile(source)
    return null
  } catch (e) {
    return (e as Error).message
  }
}

/** Does the pattern match anywhere in the tag (as RegExp#test does)? Compiled once per pattern. */
export function tagPatternMatches(source: string, tag: string): boolean {
  let re = compiled.get(source)
  if (!re) {
    re = RE2JS.compile(source)
    compiled.set(source, re)
  }
  return re.test(tag)
}
