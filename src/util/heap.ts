// V8 sizes the young generation by Node version: from Node 24 (the action's runtime) its
// semi-spaces grow to 64 MB, against 16 MB on Node 20, and a 10,000-app build peaked at
// 365–400 MB. The size is fixed when the process starts (a flag set at run time does not
// take), so an entry on such a Node runs itself again with 8 MB semi-spaces. Since the catalog
// and the change history are written element by element (util/json.ts), a cold 10,000-app build
// there peaks at 252–271 MB with 8 MB (257–269 with 4 MB, 272–281 with 16: too close to the
// 300 MB target, which the bench reads 10–20 MB higher), and in alternated runs 8 MB was faster
// than 4 MB in each of four alternated pairs (median 9.35 s against 10.04 s); 16 MB saved 0.4 s more.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import v8 from 'node:v8'

export const SEMI_SPACE_FLAG = '--max-semi-space-size=8'

/**
 * Whether the command line or NODE_OPTIONS already set the V8 flag `name` (e.g. `--max-semi-space-size`);
 * V8 reads `-` and `_` in a flag's name alike.
 */
function flagChosen(name: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const norm = (a: string) => a.split('=')[0]!.replace(/_/g, '-')
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((a) => norm(a) === name)
}

/** Whether this process should run again with SEMI_SPACE_FLAG: Node 24 or later, and no size chosen already. */
export function needsSmallYoungGeneration(
  nodeVersion: string = process.versions.node,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS
): boolean {
  const major = Number(nodeVersion.split('.')[0])
  return major >= 24 && !flagChosen('--max-semi-space-size', execArgv, nodeOptions)
}

/**
 * Runs `script` again in a child Node with SEMI_SPACE_FLAG and the same arguments,
 * environment and standard streams; resolves to its exit status.
 */
export function rerunWithSmallYoungGeneration(script: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SEMI_SPACE_FLAG, script, ...args], {
      stdio: 'inherit'
    })
    child.on('error', reject)
    // A child killed by a signal exits as a shell reports it: 128 + the signal's number.
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)))
  })
}

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent.
 * Left to itself, V8 grows it up to fourfold while collecting is cheap: a 10,000-app daily build kept
 * about 80 MB live, ran two full collections and peaked at 330 MB RSS on Node 20. At 25% it runs a
 * few more, each a few milliseconds, and peaked at 245–270 MB. Unlike a fixed --max-old-space-size
 * it scales with the catalog.
 */
export const HEAP_GROWTH_FLAG = '--heap-growing-percent=25'

/**
 * Sets HEAP_GROWTH_FLAG unless a growth factor was chosen already. V8 reads this flag at every full
 * collection, so setting it at run time takes (unlike the semi-space size).
 */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
  setFlags: (flags: string) => void = v8.setFlagsFromString
): boolean {
  const chosen = flagChosen('--heap-growing-percent', execArgv, nodeOptions)
  if (!chosen) setFlags(HEAP_GROWTH_FLAG)
  return !chosen
}
