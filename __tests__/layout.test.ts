// The source tree stays a one-way road: no module imports itself back through
// others (type-only imports count too: they tie modules together for a reader).
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SRC = path.resolve('src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []
  )
}

/** Relative imports of each module, resolved to files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8')
    // Modules only: a JSON import (the classifier's model) is data, not code that could import back.
    const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.js)'/g)].map((m) => m[1]!)
    graph.set(
      path.relative(SRC, file),
      specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts'))))
    )
  }
  return graph
}

/** Every cycle, each as the modules along it (found by depth-first search). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (m: string) => {
    state.set(m, 'open')
    stack.push(m)
    for (const next of graph.get(m) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(m, 'done')
  }
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m)
  return found
}

describe('source layout', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']]
    ])
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })

  it('has no import cycles in src/', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(40)
    for (const [m, deps] of graph) for (const d of deps) expect([m, graph.has(d)]).toEqual([m, true])
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([])
  })

  it('keeps every module in a folder of the data flow, and only the entries at the top', () => {
    const top = readdirSync(SRC, { withFileTypes: true })
    expect(
      top
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort()
    ).toEqual(['action.ts', 'check-action.ts', 'cli.ts', 'commands.ts', 'index.ts', 'inputs.ts'].sort())
    expect(
      top
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    ).toEqual(
      ['pipeline', 'catalog', 'check', 'classify', 'lifecycle', 'output', 'schema', 'site', 'upstream', 'util'].sort()
    )
  })
})
