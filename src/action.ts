// The GitHub Action: read inputs with @actions/core, run the pipeline, set
// outputs, write the job summary and annotate catalog errors on the lines they
// point at (so they show inline on pull requests).
import path from 'node:path'
import * as core from '@actions/core'
import { buildDeps } from './pipeline/deps.js'
import { build, type BuildResult } from './pipeline/pipeline.js'
import { buildSummary, type SummaryInput } from './output/job-summary.js'
import type { Logger, SourceRef } from './util/types.js'
import { resolveBaseUrl, sourceCommit, upstreamSettings } from './inputs.js'
import { closingLine, formatProblem, ProblemsError } from './util/problems.js'
import { redact, redactingLogger } from './util/redact.js'
import { escapeUnsafe } from './util/text.js'

/**
 * Annotations need a path relative to the repository root. Catalog paths are
 * relative to the working directory (the workspace on a runner) or absolute;
 * turn both into a workspace-relative POSIX path when they lie inside it.
 */
export function repoPath(file: string, cwd: string, workspace: string | undefined): string {
  const abs = path.resolve(cwd, file)
  const root = path.resolve(workspace || cwd)
  const rel = path.relative(root, abs)
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return file
  return rel.split(path.sep).join('/')
}

export function coreLogger(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Logger {
  const props = (ref?: SourceRef): core.AnnotationProperties =>
    ref?.file
      ? {
          file: escapeUnsafe(repoPath(ref.file, cwd, env.GITHUB_WORKSPACE)),
          ...(ref.line ? { startLine: ref.line } : {}),
          ...(ref.column ? { startColumn: ref.column } : {})
        }
      : {}
  // Control characters are shown escaped: the log is read on a terminal-like page.
  return {
    info: (m) => core.info(escapeUnsafe(m)),
    warning: (m, ref) => core.warning(escapeUnsafe(m), props(ref)),
    error: (m, ref) => core.error(escapeUnsafe(m), props(ref))
  }
}

/** `refresh` is optional when dist/index.js is run by hand; an empty value means false. */
function refreshInput(): boolean {
  return core.getInput('refresh') === '' ? false : core.getBooleanInput('refresh')
}

async function writeSummary(env: NodeJS.ProcessEnv, input: SummaryInput, secrets: string[]): Promise<void> {
  // Outside a runner there is no summary file; core.summary would throw.
  if (!env.GITHUB_STEP_SUMMARY) return
  try {
    // The runner masks the token in the log, not in the summary file; upstream texts may carry any token.
    await core.summary.addRaw(redact(buildSummary(input), secrets), true).write()
  } catch (e) {
    core.warning(`could not write the job summary: ${(e as Error).message}`)
  }
}

function setOutputs(result: BuildResult): void {
  core.setOutput('count', result.count)
  core.setOutput('changed', JSON.stringify(result.changed))
  core.setOutput('changed-count', result.changed.length)
  core.setOutput('stale', JSON.stringify(result.stale))
  core.setOutput('left-out', JSON.stringify(result.leftOut.map((l) => l.slug)))
  core.setOutput('output', result.outDir)
}

export async function runAction(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<void> {
  const token = core.getInput('github-token')
  const secrets = [token, env.GITHUB_TOKEN ?? '']
  // setSecret masks the value in the runner's log; redaction also covers the summary and other tokens' shapes.
  if (token) core.setSecret(token)
  const log = redactingLogger(coreLogger(env, cwd), secrets)
  let refresh = false
  try {
    refresh = refreshInput()
    const now = new Date()
    const previous = core.getInput('previous')
    const endoflifeUrl = core.getInput('endoflife-url')
    const settings = upstreamSettings(env, {
      ...(token ? { token } : {}),
      ...(endoflifeUrl ? { endoflifeUrl } : {}),
      requestTimeout: core.getInput('request-timeout'),
      refreshDeadline: core.getInput('refresh-deadline'),
      judge: core.getInput('judge'),
      model: core.getInput('model'),
      modelsEndpoint: core.getInput('models-endpoint'),
      maxModelCalls: core.getInput('max-model-calls')
    })
    const result = await build(
      {
        catalogDir: core.getInput('catalog') || 'catalog',
        outDir: core.getInput('output') || 'site',
        baseUrl: await resolveBaseUrl(core.getInput('base-url'), previous || undefined, env, log),
        now,
        refresh,
        cwd,
        sourceCommit: sourceCommit(env),
        ...(previous ? { previousDir: previous } : {})
      },
      buildDeps(settings, log, now)
    )
    setOutputs(result)
    log.info(`changed: ${result.changed.length ? result.changed.join(', ') : 'none'}`)
    await writeSummary(
      env,
      {
        count: result.count,
        changes: result.changes,
        stale: result.stale,
        leftOut: result.leftOut,
        historyReset: result.historyReset,
        faults: result.faults,
        warnings: result.warnings,
        errors: [],
        refresh,
        stats: result.stats,
        judging: result.judging
      },
      secrets
    )
  } catch (e) {
    // Every problem becomes an annotation on the file and line it names; nothing is parsed back out of text.
    const problems = e instanceof ProblemsError ? e.problems : [{ message: (e as Error).message }]
    const said = problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message))
    problems.forEach((p, i) => log.error(said[i]!, p))
    const closing = e instanceof ProblemsError ? closingLine(e, 'nothing was published') : (e as Error).message
    // A lone problem with no place is its own closing line: annotated once, the run still failed.
    if (said.includes(closing)) process.exitCode = core.ExitCode.Failure
    else core.setFailed(redact(closing, secrets))
    const errors = problems.map(formatProblem)
    const summary = { count: null, changes: [], stale: [], warnings: [], errors, refresh, stats: null }
    await writeSummary(env, summary, secrets)
  }
}
