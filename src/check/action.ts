// The pull-request check action (check/action.yml, dist/check/index.js): the image references the
// pull request changes, each judged from its old version to its new one against a published
// snapshot, reported as one comment updated in place, a job summary and an annotation on each
// changed line; the step fails when one reaches `fail-on`.
import { readFile } from 'node:fs/promises'
import * as core from '@actions/core'
import { escapeMarkdown } from '../output/job-summary.js'
import { withoutCredentials } from '../util/http-url.js'
import { redact } from '../util/redact.js'
import { escapeUnsafe } from '../util/text.js'
import { changedImages, type NotRead, type Unreadable } from './changes.js'
import { FAIL_ON, gateStatus, parseFailOn, reaches, worstOf, type FailOn } from './gate.js'
import { imageSourceLabel } from './oci.js'
import { MARKER, upsertComment, type CommentResult } from './pr-comment.js'
import { runCheck, type CheckResult } from './report.js'
import { cachedResolve, type ResolvedBy } from './resolve.js'
import { snapshotReader } from './snapshot.js'

interface PullRequestEvent {
  number?: number
  pull_request?: {
    number: number
    base: { sha: string; repo?: { full_name?: string } }
    head: { sha: string; repo?: { full_name?: string; fork?: boolean } | null }
  }
  repository?: { full_name?: string }
}

/** One line, markdown-inert, bounded, and no @mention: upstream words quoted in a comment ping nobody. */
function md(text: string, max = 400): string {
  const s = escapeMarkdown(escapeUnsafe(text))
  const cut = s.length > max ? `${s.slice(0, max - 1)}…` : s
  return cut.replace(/@/g, '@\u200b')
}
const code = (text: string) =>
  `\`${escapeUnsafe(text)
    .replace(/[`|\s]+/g, ' ')
    .slice(0, 200)}\``

export interface Report {
  result: CheckResult
  added: { file: string; line: number; image: string }[]
  unreadable: Unreadable[]
  /** Changed files the gate did not read: each is unknown. */
  notRead: NotRead[]
  failOn: FailOn
  allowUrgent: boolean
  /** An unjudged update of the major version counts as unknown, not breaking. */
  allowUnjudgedMajor?: boolean
  status: 0 | 1
  api: string
}

/** Rows of the table and lines of the not-judged list shown at most; each is at most about 1,000 characters. */
const MAX_ROWS = 40
/** How a row's app was found where the catalog does not map its image. */
const RESOLVED_BY: Record<ResolvedBy, string> = {
  'registry-namespace': ' (by its ghcr.io namespace)',
  'source-label': ' (by its source label)'
}
/** GitHub refuses a longer comment (HTTP 422); the report is cut to fit, saying what it left out. */
export const MAX_COMMENT = 65_536

/** Anything changed that is not known to be safe without a verdict: counted as unknown. */
const notJudgedCount = (r: Report) =>
  r.result.untracked.filter((u) => u.image !== null).length + r.added.length + r.unreadable.length + r.notRead.length

/** The comment's and the summary's Markdown, at most `max` characters. */
export function reportMarkdown(r: Report, note?: string, max = MAX_COMMENT): string {
  const head = [MARKER]
  const judged = r.result.apps
  const failing = judged.filter((a) => reaches(worstOf(a, r).safeToUpdate, r.failOn))
  const title =
    judged.length + r.result.untracked.length + r.added.length + r.unreadable.length + r.notRead.length === 0
      ? 'no image reference changed'
      : r.status === 1 && failing.length === 0
        ? `${notJudgedCount(r)} not judged, counted as unknown: fail-on: ${r.failOn}`
        : r.status === 1
          ? `${failing.length} image update${failing.length === 1 ? '' : 's'} reach${failing.length === 1 ? 'es' : ''} fail-on: ${r.failOn}`
          : `no image update reaches fail-on: ${r.failOn}`
  head.push(`### updatesafe check: ${r.status === 1 ? '❌' : '✅'} ${title}`, '')
  // The worst updates first.
  const rows = [...judged]
    .sort((x, y) => RANK[worstOf(y, r).safeToUpdate] - RANK[worstOf(x, r).safeToUpdate])
    .map((a) => {
      const w = worstOf(a, r)
      const src = a.source.from === 'change' ? a.source : null
      return (
        `| ${src ? code(`${src.file}:${src.line}`) : ''} | ${md(a.slug, 60)}${src?.resolvedBy ? RESOLVED_BY[src.resolvedBy] : ''} | ${md(a.running ?? '?', 60)} → ${md(a.latest, 60)} | ${a.safeToUpdate} | ` +
        `${w.safeToUpdate}${w.version ? ` (${md(w.version, 60)})` : ''}${w.urgentAllowed ? ', urgent fix allowed' : ''}${w.unjudgedMajor ? ', unjudged major' : ''} | ${md(w.words)} |`
      )
    })
  const notes = [
    ...r.notRead.map((n) => `${code(n.file)}: not read, ${md(n.reason)}`),
    ...r.result.untracked.map((u) => `${code(`${u.file}:${u.line}`)} ${code(u.image ?? '')}: ${md(u.reason)}`),
    ...r.added.map((a) => `${code(`${a.file}:${a.line}`)} ${code(a.image)}: added, no earlier version to update from`),
    ...r.unreadable.map((u) => `${code(`${u.file}:${u.line}`)} ${code(u.field)}: ${md(u.reason)}`)
  ]
  const tail: string[] = []
  if (note) tail.push(`> ${md(note, 1000)}`, '')
  tail.push(
    `<sub>fail-on: ${r.failOn}${r.allowUrgent ? ', allow-urgent' : ''}${r.allowUnjudgedMajor ? ', allow-unjudged-major' : ''} · catalog ${md(withoutCredentials(r.api).replace(/\/+$/, ''), 200)}, generated ${md(r.result.snapshot.generatedAt, 40)}</sub>`
  )
  // What is left for rows and notes once the head, the tail, the table's header and the two
  // "left out" lines (each under 200 characters) are counted.
  const fixed = [...head, ...tail].join('\n').length + 400 + 200
  let room = max - fixed
  const take = (lines: string[]): string[] => {
    const out: string[] = []
    for (const l of lines.slice(0, MAX_ROWS)) {
      if (l.length + 1 > room) break
      room -= l.length + 1
      out.push(l)
    }
    return out
  }
  const shownRows = take(rows)
  const shownNotes = take(notes.map((n) => `- ${n}`))
  const body: string[] = []
  if (rows.length > 0) {
    body.push('| Where | App | Update | Verdict | Worst crossed | Deciding words |', '|---|---|---|---|---|---|')
    body.push(...shownRows)
    if (rows.length > shownRows.length)
      body.push('', `…and ${rows.length - shownRows.length} more updates left out here (the worst come first).`)
    body.push('')
  }
  if (notes.length > 0) {
    body.push('Not judged (counted as unknown, never as safe):', '', ...shownNotes)
    if (notes.length > shownNotes.length) body.push(`- and ${notes.length - shownNotes.length} more left out here`)
    body.push('')
  }
  return `${[...head, ...body, ...tail].join('\n')}\n`
}

const RANK = { safe: 0, unknown: 1, caution: 2, breaking: 3 } as const

type Level = 'error' | 'warning' | 'notice'
export interface Annotation {
  level: Level
  message: string
  props: core.AnnotationProperties
}

/** Annotations a step shows at most: GitHub displays 10 errors and 10 warnings a step anyway. */
export const MAX_ANNOTATIONS = 50

/**
 * One annotation a changed line (error where it fails the gate, warning where not safe, notice
 * otherwise) and one a file not read, the errors first, at most MAX_ANNOTATIONS: `left` says how
 * many more there were.
 */
export function annotations(r: Report): { shown: Annotation[]; left: number } {
  const all: Annotation[] = []
  for (const a of r.result.apps) {
    if (a.source.from !== 'change') continue
    const w = worstOf(a, r)
    const props = { file: escapeUnsafe(a.source.file), startLine: a.source.line, title: `updatesafe: ${a.slug}` }
    const message = escapeUnsafe(
      `${a.slug} ${a.running ?? '?'} → ${a.latest}: ${w.safeToUpdate}${w.version ? ` (${w.version})` : ''}: ${w.words.replace(/\s+/g, ' ').slice(0, 600)}`
    )
    const level = reaches(w.safeToUpdate, r.failOn) ? 'error' : w.safeToUpdate === 'safe' ? 'notice' : 'warning'
    all.push({ level, message, props })
  }
  const notJudged = [
    ...r.notRead.map((n) => ({ file: n.file, line: 1, text: `${n.file}: not read, ${n.reason}` })),
    ...r.result.untracked.map((u) => ({ file: u.file, line: u.line, text: `${u.image ?? ''}: ${u.reason}` })),
    ...r.added.map((a) => ({
      file: a.file,
      line: a.line,
      text: `${a.image}: added, no earlier version to update from`
    })),
    ...r.unreadable.map((u) => ({ file: u.file, line: u.line, text: `${u.field}: ${u.reason}` }))
  ]
  for (const n of notJudged)
    all.push({
      level: r.failOn === 'unknown' ? 'error' : 'notice',
      message: escapeUnsafe(`not judged (unknown): ${n.text.slice(0, 800)}`),
      props: { file: escapeUnsafe(n.file), startLine: n.line, title: 'updatesafe: not judged' }
    })
  const order: Record<Level, number> = { error: 0, warning: 1, notice: 2 }
  const sorted = all.map((a, i) => ({ a, i })).sort((x, y) => order[x.a.level] - order[y.a.level] || x.i - y.i)
  return { shown: sorted.slice(0, MAX_ANNOTATIONS).map((x) => x.a), left: Math.max(0, all.length - MAX_ANNOTATIONS) }
}

function annotate(r: Report): void {
  const { shown, left } = annotations(r)
  for (const a of shown) core[a.level](a.message, a.props)
  if (left > 0)
    core.notice(
      `${left} more annotation${left === 1 ? '' : 's'} left out (at most ${MAX_ANNOTATIONS} a run, the errors first): the job summary lists the worst updates`
    )
}

function boolInput(name: string): boolean {
  const v = core.getInput(name).trim().toLowerCase()
  if (v === '' || v === 'false') return false
  if (v === 'true') return true
  throw new Error(`input ${name} "${v}" is not true or false`)
}

/** Registry lookups a run makes at most (resolve-images): each may wait 10 s a request. */
const MAX_LOOKUPS = 50
/** No lookup starts once this much time has passed since the first: a slow registry never holds the gate long. */
const LOOKUPS_MS = 60_000

export interface CheckActionDeps {
  fetch?: typeof fetch
}

export async function runCheckAction(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  deps: CheckActionDeps = {}
): Promise<void> {
  const token = core.getInput('github-token')
  if (token) core.setSecret(token)
  const secrets = [token, env.GITHUB_TOKEN ?? '']
  try {
    const failOn = parseFailOn(core.getInput('fail-on'), `input fail-on (one of ${FAIL_ON.join(', ')})`)
    const allowUrgent = boolInput('allow-urgent')
    const allowUnjudgedMajor = boolInput('allow-unjudged-major')
    // On by default in check/action.yml: the runner may reach registries, and an unmapped image is otherwise unknown.
    const resolveImages = boolInput('resolve-images')
    const api = core.getInput('api').trim()
    if (!api)
      throw new Error(
        'input api is empty: give the address of an updatesafe snapshot, e.g. https://OWNER.github.io/REPO'
      )
    // `https://user:password@host` authenticates to a private catalog: the password is masked in the
    // log, and the address is printed without it.
    for (const part of apiCredentials(api)) {
      core.setSecret(part)
      secrets.push(part)
    }
    const commentAuthor = core.getInput('comment-author').trim()
    if (!env.GITHUB_EVENT_PATH) throw new Error('GITHUB_EVENT_PATH is not set: run this action on pull_request')
    const event = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as PullRequestEvent
    const pr = event.pull_request
    if (!pr)
      throw new Error(
        `the event is not a pull request (${env.GITHUB_EVENT_NAME ?? '?'}): run this action on pull_request`
      )
    const { changes, added, unreadable, notRead } = await changedImages(cwd, pr.base.sha, pr.head.sha)
    const resolve = resolveImages
      ? cachedResolve((ref) => imageSourceLabel(ref, deps.fetch ? { fetch: deps.fetch } : {}), {
          max: MAX_LOOKUPS,
          totalMs: LOOKUPS_MS
        })
      : undefined
    const result = await runCheck(snapshotReader(api, deps.fetch ? { fetch: deps.fetch } : {}), {
      from: [],
      services: [],
      changes,
      ...(resolve ? { resolve, resolveFlag: 'resolve-images' } : {})
    })
    // An added image is not an update, but neither is it known to be safe; nor is an image left to a
    // template, or whatever a file the gate did not read holds.
    const asUnknown = {
      ...result,
      untracked: [
        ...result.untracked,
        ...added.map((a) => ({ ...a, service: a.field, reason: 'added' })),
        ...unreadable.map((u) => ({ ...u, service: u.field, image: '' })),
        ...notRead.map((n) => ({ file: n.file, line: 1, service: '', image: '', reason: n.reason }))
      ]
    }
    const status = gateStatus(asUnknown, { failOn, allowUrgent, allowUnjudgedMajor })
    const report: Report = {
      result,
      added: added.map((a) => ({ file: a.file, line: a.line, image: a.image })),
      unreadable,
      notRead,
      failOn,
      allowUrgent,
      allowUnjudgedMajor,
      status,
      api
    }
    annotate(report)

    const repo = event.repository?.full_name ?? env.GITHUB_REPOSITORY ?? ''
    const anything =
      result.apps.length + result.untracked.length + added.length + unreadable.length + notRead.length > 0
    let comment: CommentResult
    if (!token) comment = { done: 'none', why: 'no github-token was given' }
    else
      comment = await upsertComment(
        {
          apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
          token,
          repo,
          issue: pr.number,
          ...(commentAuthor ? { author: commentAuthor } : {}),
          ...(deps.fetch ? { fetch: deps.fetch } : {})
        },
        // Upstream words may echo a credential; the comment is public to everyone who can read the pull request.
        redact(reportMarkdown(report), secrets),
        // A pull request that changes no image gets no new comment (an old one is still brought up to date).
        anything
      ).catch((e: Error) => ({ done: 'none' as const, why: `the comment could not be written: ${e.message}` }))
    const fork = pr.head.repo?.fork === true || (pr.head.repo?.full_name ?? repo) !== repo
    const note =
      comment.done === 'none' && anything
        ? `No pull-request comment: ${comment.why}${fork ? ' (this pull request comes from a fork)' : ''}. The summary and the annotations carry the result.`
        : undefined
    if (note) core.warning(escapeUnsafe(redact(note, secrets)))
    else if (comment.done !== 'none') core.info(`comment ${comment.done}: ${comment.url}`)
    if (comment.done !== 'none' && comment.warning) core.warning(escapeUnsafe(redact(comment.warning, secrets)))
    if (env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(redact(reportMarkdown(report, note), secrets), true).write()
    const worst = result.apps.reduce(
      (m, a) => Math.max(m, RANK[worstOf(a, { allowUrgent, allowUnjudgedMajor }).safeToUpdate]),
      notJudgedCount(report) > 0 ? RANK.unknown : 0
    )
    core.setOutput('worst', (Object.keys(RANK) as (keyof typeof RANK)[])[worst] ?? 'safe')
    core.setOutput('judged', result.apps.length)
    core.setOutput('comment', comment.done)
    if (status === 1)
      core.setFailed(
        `an image update reaches fail-on: ${failOn}${failing(report)}; see the annotations and the job summary`
      )
  } catch (e) {
    core.setFailed(escapeUnsafe(redact((e as Error).message, secrets)))
  }
}

/** The password of an `api` URL, as written and decoded (the user name is no secret). */
function apiCredentials(api: string): string[] {
  try {
    const { password } = new URL(api)
    return password ? [...new Set([password, decodeURIComponent(password)])] : []
  } catch {
    return []
  }
}

function failing(r: Report): string {
  const names = r.result.apps
    .filter((a) => reaches(worstOf(a, r).safeToUpdate, r.failOn))
    .map((a) => `${a.slug} ${a.running ?? '?'} → ${a.latest}`)
  return names.length > 0 ? ` (${escapeUnsafe(names.slice(0, 10).join(', '))})` : ''
}
