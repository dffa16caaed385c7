// scripts/redact.sh, which keep-alive.sh, publish.sh and release.sh source: every line they and
// the commands they start write goes out with the token and token-shaped words replaced by ***,
// all of it, before the script's exit status is seen.
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { tempDir } from './support/tmp.js'

const LIB = path.resolve('scripts/redact.sh')

/** Runs `body` in bash after sourcing redact.sh; stdout and stderr apart, and both to one file in order. */
function bash(body: string, env: Record<string, string> = {}) {
  const r = spawnSync('bash', ['-c', `set -euo pipefail; . "${LIB}"; ${body}`], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    // stdin from /dev/null: bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are.
    stdio: ['ignore', 'pipe', 'pipe']
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('scripts/redact.sh', () => {
  it('replaces the token value, token shapes, credential headers and URL credentials', () => {
    const token = 'enterprise*token[value]+1'
    const lines = [
      `value ${token} twice ${token}`,
      `classic ghp_${'a1'.repeat(10)} server ghs_${'B2'.repeat(10)} oauth gho_${'c3'.repeat(10)}`,
      `fine-grained github_pat_11AAAAAAA0_${'x'.repeat(40)}`,
      `Authorization: Bearer ${'e'.repeat(20)}.sig`,
      `Authorization: token ${'f0'.repeat(10)}`,
      `remote https://x-access-token:${'g'.repeat(20)}@github.com/o/r.git`,
      'ordinary: the ghp_ prefix, Bearer authentication, token count 3'
    ]
    const r = bash(`printf '%s\\n' "$@" | redact_stream`.replace('"$@"', lines.map((l) => `'${l}'`).join(' ')), {
      GITHUB_TOKEN: token
    })
    expect(r.stdout.split('\n')).toEqual([
      'value *** twice ***',
      'classic *** server *** oauth ***',
      'fine-grained ***',
      'Authorization: Bearer ***',
      'Authorization: token ***',
      'remote https://***@github.com/o/r.git',
      'ordinary: the ghp_ prefix, Bearer authentication, token count 3',
      ''
    ])
  })

  it('redacts a credential header whatever its case, as src/util/redact.ts does', () => {
    const lines = [`Authorization: BEARER ${'h'.repeat(20)}`, `TOKEN ${'i9'.repeat(10)}`, `basic ${'j'.repeat(16)}`]
    const r = bash(`printf '%s\\n' ${lines.map((l) => `'${l}'`).join(' ')} | redact_stream`)
    expect(r.stdout.split('\n')).toEqual(['Authorization: BEARER ***', 'TOKEN ***', 'basic ***', ''])
  })

  /** A script in a temporary folder that sources redact.sh and calls redact_output `mode`; run with `args`. */
  async function script(mode: string, body: string, args: string[], env: Record<string, string>) {
    const { dir, cleanup } = await tempDir()
    const file = path.join(dir, 'job.sh')
    await writeFile(file, `set -euo pipefail\n. "${LIB}"\nredact_output ${mode} "$@"\n${body}\n`)
    const r = spawnSync('bash', [file, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe']
    })
    await cleanup()
    return { status: r.status, stdout: r.stdout, stderr: r.stderr }
  }

  it('filters stdout and stderr of the script and its commands, waits for both, and keeps the exit status', async () => {
    const token = 'sekret-token-value-99'
    const r = await script(
      'all',
      [
        'echo "out $GITHUB_TOKEN $1"',
        `sh -c 'echo "child $GITHUB_TOKEN" >&2'`,
        // A function called with a redirection that exits inside it: bash keeps a copy of stdout open then.
        'quiet() { for i in $(seq 1 2000); do echo "line $i" >&3; done; exit 7; }',
        'exec 3>&1',
        'quiet >/dev/null'
      ].join('\n'),
      ['arg one'],
      { GITHUB_TOKEN: token }
    )
    expect(r.status).toBe(7)
    expect(r.stdout.startsWith('out *** arg one\n')).toBe(true)
    expect(r.stderr).toBe('child ***\n')
    // Every line is there before the exit status is seen.
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('line 2000')
    expect(`${r.stdout}${r.stderr}`).not.toContain(token)
  })

  it('leaves stdout alone when asked (release notes are data), still filtering stderr', async () => {
    const token = 'sekret-token-value-99'
    const r = await script('stderr', `echo "Bearer ${'z'.repeat(20)}"; echo "$GITHUB_TOKEN" >&2`, [], {
      GITHUB_TOKEN: token
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toBe(`Bearer ${'z'.repeat(20)}\n`)
    expect(r.stderr).toBe('***\n')
  })
})
