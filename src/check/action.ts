// The pull-request check action (check/action.yml, dist/check/index.js): the image references the
// pull request changes, each judged from its old version to its new one against a published
// snapshot, reported as one comment updated in place, a job summary and an annotation on each
// changed line; the step fails when one reaches `fail-on`.
import { readFile } from 'node:fs/promises'
import * as core from '@actions/core'
import { escapeMarkdown } from '../output/job-summary.js'
import { redact } from '../util/redact.js'
import { escapeUnsafe } from '../util/text.js'
import { changedImages, type Unreadable } from './changes.js'
import { FAIL_ON, gateStatus, parseFailOn, reaches, worstOf, type FailOn } from './gate.js'
import { MARKER, upsertComment, type CommentResult } from './pr-comment.js'
import { runCheck, type CheckResult } from './report.js'
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
  failOn: FailOn
  allowUrgent: boolean
  status: 0 | 1
  api: string
}

/** Rows of the table; each is at most about 1,000 characters. */
const MAX_ROWS = 40

/** The comment's and the summary's Markdown. */
export function reportMarkdown(r: Report, note?: string): string {
  const out = [MARKER]
  const judged = r.result.apps
  const failing = judged.filter((a) => reaches(worstOf(a, r).safeToUpdate, r.failOn))
  const title =
    judged.length + r.result.untracked.length + r.added.length === 0
      ? 'no image reference changed'
      : r.status === 1
        ? `${failing.length || 'an'} image update${failing.length === 1 ? '' : 's'} reach${failing.length === 1 ? 'es' : ''} fail-on: ${r.failOn}`
        : `no image update reaches fail-on: ${r.failOn}`
  out.push(`### updatesafe check: ${r.status === 1 ? '❌' : '✅'} ${title}`, '')
  if (judged.length > 0) {
    out.push('| Where | App | Update | Verdict | Worst crossed | Deciding words |', '|---|---|---|---|---|---|')
    // GitHub keeps a comment to 65,536 characters: the worst updates first, at most MAX_ROWS of them.
    const shown = [...judged]
      .sort((x, y) => RANK[worstOf(y, r).safeToUpdate] - RANK[worstOf(x, r).safeToUpdate])
      .slice(0, MAX_ROWS)
    for (const a of shown) {
      const w = worstOf(a, r)
      const src = a.source.from === 'change' ? a.source : null
      out.push(
        `| ${src ? code(`${src.file}:${src.line}`) : ''} | ${md(a.slug, 60)} | ${md(a.running ?? '?', 60)} → ${md(a.latest, 60)} | ${a.safeToUpdate} | ` +
          `${w.safeToUpdate}${w.version ? ` (${md(w.version, 60)})` : ''}${w.urgentAllowed ? ', urgent fix allowed' : ''} | ${md(w.words)} |`
      )
    }
    if (judged.length > MAX_ROWS) out.push('', `…and ${judged.length - MAX_ROWS} more, in the annotations.`)
    out.push('')
  }
  const notes = [
    ...r.result.untracked.map((u) => `${code(`${u.file}:${u.line}`)} ${code(u.image ?? '')}: ${md(u.reason)}`),
    ...r.added.map((a) => `${code(`${a.file}:${a.line}`)} ${code(a.image)}: added, no earlier version to update from`),
    ...r.unreadable.map((u) => `${code(`${u.file}:${u.line}`)} ${code(u.field)}: ${md(u.reason)}`)
  ]
  if (notes.length > 0) {
    out.push('Not judged (counted as unknown, never as safe):', '', ...notes.slice(0, 40).map((n) => `- ${n}`))
    if (notes.length > 40) out.push(`- and ${notes.length - 40} more`)
    out.push('')
  }
  if (note) out.push(`> ${md(note, 1000)}`, '')
  out.push(
    `<sub>fail-on: ${r.failOn}${r.allowUrgent ? ', allow-urgent' : ''} · catalog ${md(r.api, 200)}, generated ${md(r.result.snapshot.generatedAt, 40)}</sub>`
  )
  return `${out.join('\n')}\n`
}

const RANK = { safe: 0, unknown: 1, caution: 2, breaking: 3 } as const

/** One annotation a changed line: error where it fails the gate, warning where not safe, notice otherwise. */
function annotate(r: Report): void {
  for (const a of r.result.apps) {
    if (a.source.from !== 'change') continue
    const w = worstOf(a, r)
    const props = { file: escapeUnsafe(a.source.file), startLine: a.source.line, title: `updatesafe: ${a.slug}` }
    const msg = escapeUnsafe(
      `${a.slug} ${a.running ?? '?'} → ${a.latest}: ${w.safeToUpdate}${w.version ? ` (${w.version})` : ''}: ${w.words.replace(/\s+/g, ' ').slice(0, 600)}`
    )
    if (reaches(w.safeToUpdate, r.failOn)) core.error(msg, props)
    else if (w.safeToUpdate === 'safe') core.notice(msg, props)
    else core.warning(msg, props)
  }
  const notJudged = [
    ...r.result.untracked.map((u) => ({ file: u.file, line: u.line, text: `${u.image ?? ''}: ${u.reason}` })),
    ...r.added.map((a) => ({
      file: a.file,
      line: a.line,
      text: `${a.image}: added, no earlier version to update from`
    })),
    ...r.unreadable.map((u) => ({ file: u.file, line: u.line, text: `${u.field}: ${u.reason}` }))
  ]
  for (const n of notJudged.slice(0, 50)) {
    const props = { file: escapeUnsafe(n.file), startLine: n.line, title: 'updatesafe: not judged' }
    const msg = escapeUnsafe(`not judged (unknown): ${n.text}`)
    if (r.failOn === 'unknown') core.error(msg, props)
    else core.notice(msg, props)
  }
}

function boolInput(name: string): boolean {
  const v = core.getInput(name).trim().toLowerCase()
  if (v === '' || v === 'false') return false
  if (v === 'true') return true
  throw new Error(`input ${name} "${v}" is not true or false`)
}

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
    const api = core.getInput('api').trim()
    if (!api)
      throw new Error(
        'input api is empty: give the address of an updatesafe snapshot, e.g. https://OWNER.github.io/REPO'
      )
    if (!env.GITHUB_EVENT_PATH) throw new Error('GITHUB_EVENT_PATH is not set: run this action on pull_request')
    const event = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as PullRequestEvent
    const pr = event.pull_request
    if (!pr)
      throw new Error(
        `the event is not a pull request (${env.GITHUB_EVENT_NAME ?? '?'}): run this action on pull_request`
      )
    const { changes, added, unreadable } = await changedImages(cwd, pr.base.sha, pr.head.sha)
    const result = await runCheck(snapshotReader(api, deps.fetch ? { fetch: deps.fetch } : {}), {
      from: [],
      services: [],
      changes
    })
    // An added image is not an update, but neither is it known to be safe.
    const asUnknown = {
      ...result,
      untracked: [...result.untracked, ...added.map((a) => ({ ...a, service: a.field, reason: 'added' }))]
    }
    const status = gateStatus(asUnknown, { failOn, allowUrgent })
    const report: Report = {
      result,
      added: added.map((a) => ({ file: a.file, line: a.line, image: a.image })),
      unreadable,
      failOn,
      allowUrgent,
      status,
      api
    }
    annotate(report)

    const repo = event.repository?.full_name ?? env.GITHUB_REPOSITORY ?? ''
    const anything = result.apps.length + result.untracked.length + added.length + unreadable.length > 0
    let comment: CommentResult
    if (!token) comment = { done: 'none', why: 'no github-token was given' }
    else
      comment = await upsertComment(
        {
          apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
          token,
          repo,
          issue: pr.number,
          ...(deps.fetch ? { fetch: deps.fetch } : {})
        },
        reportMarkdown(report),
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
    if (env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(redact(reportMarkdown(report, note), secrets), true).write()
    const worst = result.apps.reduce(
      (m, a) => Math.max(m, RANK[worstOf(a, { allowUrgent }).safeToUpdate]),
      result.untracked.length + added.length > 0 ? RANK.unknown : 0
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

function failing(r: Report): string {
  const names = r.result.apps
    .filter((a) => reaches(worstOf(a, r).safeToUpdate, r.failOn))
    .map((a) => `${a.slug} ${a.running ?? '?'} → ${a.latest}`)
  return names.length > 0 ? ` (${escapeUnsafe(names.slice(0, 10).join(', '))})` : ''
}
