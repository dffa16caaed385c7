// The check action run as the runner runs it: a child process with INPUT_* variables, a pull_request event at
// GITHUB_EVENT_PATH (the fields of GitHub's webhook payload the action reads, in their places), and
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files; annotations and logs come back on stdout.
import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface CheckRun {
  code: number | null
  stdout: string
  summary: string
  outputs: string
}

export interface CheckRunOptions {
  /** Where the run's event, summary and output files are written, named by `n`. */
  dir: string
  n: number
  /** What `node` runs: the bundle, or a loader and the source entry. */
  argv: readonly string[]
  /** The repository checked out, and the pull request's base and head commits. */
  cwd: string
  base: string
  head: string
  repo: string
  /** The head's repository, when it is a fork's. */
  fork?: string
  number?: number
  title?: string
  apiUrl: string
  /** Every input, by its name in action.yml. */
  inputs: Record<string, string>
}

export async function runCheckAction(o: CheckRunOptions): Promise<CheckRun> {
  const event = path.join(o.dir, `event-${o.n}.json`)
  const summary = path.join(o.dir, `summary-${o.n}.md`)
  const output = path.join(o.dir, `output-${o.n}.txt`)
  const number = o.number ?? o.n
  await writeFile(
    event,
    JSON.stringify({
      action: 'synchronize',
      number,
      pull_request: {
        number,
        state: 'open',
        ...(o.title === undefined ? {} : { title: o.title }),
        base: { ref: 'main', sha: o.base, repo: { full_name: o.repo, fork: false } },
        head: { ref: 'renovate/bump', sha: o.head, repo: { full_name: o.fork ?? o.repo, fork: o.fork !== undefined } }
      },
      repository: { full_name: o.repo }
    })
  )
  await writeFile(summary, '')
  await writeFile(output, '')
  const child = spawn(process.execPath, [...o.argv], {
    cwd: o.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: o.dir,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      GITHUB_REPOSITORY: o.repo,
      GITHUB_API_URL: o.apiUrl,
      ...Object.fromEntries(Object.entries(o.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    }
  })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
  const code = await new Promise<number | null>((ok) => child.on('close', ok))
  return { code, stdout, summary: await readFile(summary, 'utf8'), outputs: await readFile(output, 'utf8') }
}
