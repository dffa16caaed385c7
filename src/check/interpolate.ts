// Compose's variable interpolation, as its specification gives it: `$VAR`, `${VAR}`,
// `${VAR:-default}` (unset or empty), `${VAR-default}` (unset), `${VAR:?error}`, `${VAR?error}`,
// `${VAR:+other}`, `${VAR+other}`, defaults that interpolate in turn, and `$$` for a literal dollar.
// Where Compose would substitute an empty string for an unset variable (with a warning), this
// reports it: a version `check` did not read is never judged.

export type Env = Readonly<Record<string, string | undefined>>

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/
const BRACED = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/
/** Defaults that nest deeper than this are not a Compose file anyone wrote. */
const MAX_DEPTH = 16

/** The text with every variable replaced from `env`, or why it cannot be. */
export function interpolate(text: string, env: Env, depth = 0): { value: string } | { problem: string } {
  if (depth > MAX_DEPTH) return { problem: `nests variables more than ${MAX_DEPTH} deep` }
  let out = ''
  let i = 0
  while (i < text.length) {
    const dollar = text.indexOf('$', i)
    if (dollar < 0) {
      out += text.slice(i)
      break
    }
    out += text.slice(i, dollar)
    const next = text[dollar + 1]
    if (next === '$') {
      out += '$'
      i = dollar + 2
      continue
    }
    const bare = NAME.exec(text.slice(dollar + 1))
    if (bare) {
      const value = env[bare[0]]
      if (value === undefined) return unset(bare[0])
      out += value
      i = dollar + 1 + bare[0].length
      continue
    }
    if (next !== '{') return { problem: `has a "$" that starts no variable (write "$$" for a dollar sign)` }
    const close = closingBrace(text, dollar + 2)
    if (close < 0) return { problem: 'has a "${" without its closing "}"' }
    const m = BRACED.exec(text.slice(dollar + 2, close))
    if (!m) return { problem: `has "${text.slice(dollar, close + 1).slice(0, 60)}", which is not a variable` }
    const [, name, op, arg = ''] = m as unknown as [string, string, string | undefined, string | undefined]
    const value = env[name]
    const set = value !== undefined
    const filled = set && value !== ''
    let piece: string
    switch (op) {
      case undefined:
        if (!set) return unset(name)
        piece = value
        break
      case ':-':
      case '-': {
        if (op === ':-' ? filled : set) piece = value!
        else {
          const d = interpolate(arg, env, depth + 1)
          if ('problem' in d) return d
          piece = d.value
        }
        break
      }
      case ':?':
      case '?':
        if (!(op === ':?' ? filled : set))
          return {
            problem: `needs ${name}${op === ':?' ? ' set and not empty' : ' set'}${arg ? `: ${arg.slice(0, 120)}` : ''}`
          }
        piece = value!
        break
      default: {
        // `:+` and `+`: the other text when the variable is set (and, for `:+`, not empty).
        if (op === ':+' ? filled : set) {
          const d = interpolate(arg, env, depth + 1)
          if ('problem' in d) return d
          piece = d.value
        } else piece = ''
      }
    }
    out += piece
    i = close + 1
  }
  return { value: out }
}

const unset = (name: string) => ({
  problem: `uses \${${name}}, which is not set and has no default (check reads the environment it runs in, not a .env file: set ${name}, or write the value out, e.g. with "docker compose config")`
})

/** The index of the `}` that closes a `${` whose body starts at `from`, nested `${…}` counted; -1 if none. */
function closingBrace(text: string, from: number): number {
  let depth = 1
  for (let i = from; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '$') i++
    else if (text[i] === '$' && text[i + 1] === '{') {
      depth++
      i++
    } else if (text[i] === '}' && --depth === 0) return i
  }
  return -1
}
