import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  HEAP_GROWTH_FLAG,
  limitHeapGrowth,
  needsSmallYoungGeneration,
  rerunWithSmallYoungGeneration,
  SEMI_SPACE_FLAG
} from '../../src/util/heap.js'
import { tempDir } from '../support/tmp.js'

describe('the young generation on Node 24 and later', () => {
  it('asks for a rerun only from Node 24 and only when no semi-space size is chosen', () => {
    expect(needsSmallYoungGeneration('20.20.2', [], undefined)).toBe(false)
    expect(needsSmallYoungGeneration('22.1.0', [], undefined)).toBe(false)
    expect(needsSmallYoungGeneration('24.21.0', [], undefined)).toBe(true)
    expect(needsSmallYoungGeneration('26.0.0', [], '--enable-source-maps')).toBe(true)
    expect(needsSmallYoungGeneration('24.21.0', [SEMI_SPACE_FLAG], undefined)).toBe(false)
    expect(needsSmallYoungGeneration('24.21.0', [], '--max-semi-space-size=32')).toBe(false)
  })

  it('reruns a script with the flag, the same arguments, and its exit status', async () => {
    const { dir, cleanup } = await tempDir()
    try {
      const script = path.join(dir, 'echo.mjs')
      const out = path.join(dir, 'out.json')
      await writeFile(
        script,
        `import { writeFileSync } from 'node:fs'\n` +
          `writeFileSync(${JSON.stringify(out)}, JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2) }))\n` +
          `process.exitCode = 3\n`
      )
      expect(await rerunWithSmallYoungGeneration(script, ['build', '--out', 'a b'])).toBe(3)
      const seen = JSON.parse(await readFile(out, 'utf8'))
      expect(seen.execArgv).toContain(SEMI_SPACE_FLAG)
      expect(seen.args).toEqual(['build', '--out', 'a b'])
    } finally {
      await cleanup()
    }
  })
})

describe('the growth of the old generation', () => {
  it('is limited unless a growth factor is chosen already', () => {
    const set: string[] = []
    const record = (f: string) => void set.push(f)
    expect(limitHeapGrowth([], undefined, record)).toBe(true)
    expect(limitHeapGrowth([], '--enable-source-maps', record)).toBe(true)
    expect(limitHeapGrowth(['--heap-growing-percent=80'], undefined, record)).toBe(false)
    expect(limitHeapGrowth([], '--heap_growing_percent=80', record)).toBe(false)
    expect(set).toEqual([HEAP_GROWTH_FLAG, HEAP_GROWTH_FLAG])
  })

  it('is a flag this Node accepts', () => {
    const r = spawnSync(process.execPath, [HEAP_GROWTH_FLAG, '-e', ''], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })
})
