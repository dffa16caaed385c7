// The GitHub Action: read inputs with @actions/core, run the pipeline, set
// outputs, write the job summary and annotate catalog errors on the lines they
// point at (so they show inline on pull requests).
import path from 'node:path'
import * as core from '@actions/core'
import { CatalogError, formatIssue } from './catalog/load.js'
import { buildDeps, upstreamSettings } from './build/deps.js'
import { build, type BuildResult } from './build/pipeline.js'
import { buildSummary, type SummaryInput } from './output/job-summary.js'
import type { Logger, SourceRef } from './util/types.js'
import { defaultBaseUrl } from './site/paths.js'
import { withParallel, type WorkerScripts } from './workers/index.js'

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
          file: repoPath(ref.file, cwd, env.GITHUB_WORKSPACE),
          ...(ref.line ? { startLine: ref.line } : {}),
          ...(ref.col ? { startColumn: ref.col } : {})
        }
      : {}
  return {
    info: (m) => core.info(m),
    warning: (m, ref) => core.warning(m, props(ref)),
    error: (m, ref) => core.error(m, props(ref))
  }
}

/**
 * Pipeline errors that are not CatalogErrors still name a catalog file at the
 * start of a line (`catalog/apps/x.yml: release: …`); point the annotation there.
 */
export function fileOfLine(line: string): { ref: SourceRef; message: string } | null {
  const m = /^(\S[^:]*\.ya?ml)(?::(\d+))?(?::(\d+))?: (.+)$/.exec(line)
  if (!m) return null
  return {
    ref: { file: m[1]!, ...(m[2] ? { line: Number(m[2]) } : {}), ...(m[3] ? { col: Number(m[3]) } : {}) },
    message: m[4]!
  }
}

/** `refresh` is optional when dist/index.js is run by hand; an empty value means false. */
function refreshInput(): boolean {
  return core.getInput('refresh') === '' ? false : core.getBooleanInput('refresh')
}

async function writeSummary(env: NodeJS.ProcessEnv, input: SummaryInput): Promise<void> {
  // Outside a runner there is no summary file; core.summary would throw.
  if (!env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(buildSummary(input), true).write()
  } catch (e) {
    core.warning(`could not write the job summary: ${(e as Error).message}`)
  }
}

function setOutputs(result: BuildResult): void {
  core.setOutput('count', result.count)
  core.setOutput('changed', JSON.stringify(result.changed))
  core.setOutput('changed-count', result.changed.length)
  core.setOutput('stale', JSON.stringify(result.stale))
  core.setOutput('output', result.outDir)
}

/** `workers` are the thread bundles; given, a large build spreads its work over threads that run them. */
export async function runAction(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  workers?: WorkerScripts
): Promise<void> {
  const log = coreLogger(env, cwd)
  let refresh = false
  try {
    const token = core.getInput('github-token')
    if (token) core.setSecret(token)
    refresh = refreshInput()
    const now = new Date()
    const previous = core.getInput('previous')
    const endoflifeUrl = core.getInput('endoflife-url')
    const settings = upstreamSettings(env, { ...(token ? { token } : {}), ...(endoflifeUrl ? { endoflifeUrl } : {}) })
    const result = await withParallel(workers, env, (parallel) =>
      build(
        {
          catalogDir: core.getInput('catalog') || 'catalog',
          outDir: core.getInput('output') || 'site',
          baseUrl: core.getInput('base-url') || defaultBaseUrl(env),
          now,
          refresh,
          cwd,
          ...(previous ? { previousDir: previous } : {})
        },
        buildDeps(settings, log, now, parallel)
      )
    )
    setOutputs(result)
    core.info(`changed: ${result.changed.length ? result.changed.join(', ') : 'none'}`)
    await writeSummary(env, {
      count: result.count,
      changes: result.changes,
      stale: result.stale,
      warnings: result.warnings,
      errors: [],
      refresh,
      stats: result.stats
    })
  } catch (e) {
    let errors: string[]
    if (e instanceof CatalogError) {
      for (const i of e.issues) log.error(`${i.field ? `${i.field}: ` : ''}${i.message}`, i)
      errors = e.issues.map(formatIssue)
      core.setFailed(`${e.issues.length} catalog error${e.issues.length === 1 ? '' : 's'}; nothing was published`)
    } else {
      const message = (e as Error).message
      errors = message.split('\n').filter((l) => l.trim() !== '')
      const located = errors.map(fileOfLine)
      if (located.every((l) => l !== null) && located.length > 0) {
        for (const l of located) log.error(l!.message, l!.ref)
        core.setFailed(`${located.length} error${located.length === 1 ? '' : 's'}; nothing was published`)
      } else {
        core.setFailed(message)
      }
    }
    await writeSummary(env, { count: null, changes: [], stale: [], warnings: [], errors, refresh, stats: null })
  }
}
