// Upstream error texts reach the terminal, annotations and the job summary, and an
// upstream may echo what it was sent: the Authorization header included. Every such
// message goes through `redact`: the run's own token value and anything shaped like
// a GitHub token (classic `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`, fine-grained
// `github_pat_`), the credential of an `Authorization: Bearer|token|Basic …` header and the
// user:password of a URL become `***`, in the CLI as in the action (scripts/redact.sh does the
// same for the shell scripts).
import type { Logger } from './types.js'

export const REDACTED = '***'

const GITHUB_TOKEN_SHAPE = /\b(?:gh[opusr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})/g
// 16 characters at least, so that "Bearer authentication" stays a phrase.
const HEADER_CREDENTIAL = /\b(Bearer|token|Basic)(\s+)[A-Za-z0-9._~+/=-]{16,}/gi
/** The `user:password@` of a URL in text, after its `://` (group 1); global, for String.replace. */
export const URL_CREDENTIALS = /(:\/\/)[^/@\s]+@/g

/** Secrets shorter than this are not searched for: they would blank out ordinary words. */
const MIN_SECRET = 8

/** The text with every secret value and every GitHub-token-shaped word replaced by `***`. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let s = text
  for (const secret of secrets) if (secret && secret.length >= MIN_SECRET) s = s.split(secret).join(REDACTED)
  return s
    .replace(GITHUB_TOKEN_SHAPE, REDACTED)
    .replace(HEADER_CREDENTIAL, `$1$2${REDACTED}`)
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
}

/** A logger that redacts every message before it is written. */
export function redactingLogger(log: Logger, secrets: readonly (string | undefined)[]): Logger {
  return {
    info: (m) => log.info(redact(m, secrets)),
    warning: (m, ref) => log.warning(redact(m, secrets), ref),
    error: (m, ref) => log.error(redact(m, secrets), ref)
  }
}
