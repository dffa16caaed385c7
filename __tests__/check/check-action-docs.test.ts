// check/action.yml's interface and docs/check-action.md's copy-paste workflows: actionlint-clean,
// passing only inputs the action declares, asking pull-requests: write for the comment alone.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'yaml'
// @ts-expect-error: a plain .mjs script without types
import { lintFiles } from '../../scripts/actionlint.mjs'
import { tempDir } from '../support/tmp.js'

const action = parse(readFileSync('check/action.yml', 'utf8')) as {
  inputs: Record<string, { default?: string; required?: boolean }>
  runs: { using: string; main: string }
}
const doc = readFileSync('docs/check-action.md', 'utf8')
const workflows = [...doc.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1]!)

type Step = { uses?: string; with?: Record<string, unknown> }
type Workflow = {
  permissions?: Record<string, string>
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>
}

describe('check/action.yml', () => {
  it('runs the third bundle on node24 with the gate’s inputs', () => {
    expect(action.runs).toEqual({ using: 'node24', main: '../dist/check/index.js' })
    const bundle = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { bundle: string } }).scripts.bundle
    expect(bundle).toContain('ncc build src/check-action.ts -o dist/check')
    expect(Object.keys(action.inputs).sort()).toEqual([
      'allow-unjudged-major',
      'allow-urgent',
      'api',
      'comment-author',
      'fail-on',
      'github-token',
      'resolve-images'
    ])
    expect(action.inputs['resolve-images']!.default).toBe('true')
    expect(action.inputs['fail-on']!.default).toBe('breaking')
    expect(action.inputs.api!.required).toBe(true)
  })
})

describe('docs/check-action.md', () => {
  it('gives Renovate and Dependabot workflows that pass actionlint', async () => {
    expect(doc).toMatch(/## Renovate/)
    expect(doc).toMatch(/## Dependabot/)
    expect(workflows).toHaveLength(2)
    const { dir, cleanup } = await tempDir('updatesafe-check-docs-')
    try {
      const files: string[] = []
      for (const [i, w] of workflows.entries()) {
        const f = path.join(dir, `w${i}.yml`)
        await writeFile(f, w)
        files.push(f)
      }
      expect(await lintFiles(files)).toEqual([])
    } finally {
      await cleanup()
    }
  })

  it('has a row in its inputs table for each input the action declares, and no other', () => {
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1])
    expect(rows.sort()).toEqual(Object.keys(action.inputs).sort())
  })

  it('passes only declared inputs and asks pull-requests: write for the check job only', () => {
    for (const text of workflows) {
      const w = parse(text) as Workflow
      expect(w.permissions).toEqual({ contents: 'read' })
      for (const job of Object.values(w.jobs)) {
        expect(job.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' })
        const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))
        expect(checkout?.with).toMatchObject({ 'fetch-depth': 0 })
        const step = job.steps.find((s) => s.uses?.endsWith('/updatesafe/check@v1'))!
        expect(Object.keys(step.with ?? {}).every((k) => k in action.inputs)).toBe(true)
        expect(step.with).toHaveProperty('api')
      }
    }
  })
})
