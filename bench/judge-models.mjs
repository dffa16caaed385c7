// Measures the model judge (issue 49): the verdict a build publishes (the model's checked answer with the
// rules' floor under it), the model's own answers and the rules alone, on the same labelled notes, with
// their agreement. Two ways in:
//   npm run eval -- --judge models [--record FILE] [--limit N] [--resume] [--interval S] [--model ID] [--endpoint URL]
//       asks GitHub Models (GITHUB_TOKEN) about each labelled release, as the build would (the same prompt, check
//       and one retry), appending every response to FILE as JSON lines {id, attempt, response}; then scores them.
//   npm run eval -- --answers FILE
//       scores a recording made that way (or by .github/workflows/eval-models.yml), here or anywhere: nothing is asked.
// Data: the labelled release notes of the shared data set, read in place (--data DIR; default
// ../shared/data/release-notes beside the checkout, or UPDATESAFE_DATA): notes.jsonl and unlabelled-notes.jsonl for
// the text, dev-labels.jsonl for the labels. Only labelled entries are asked about and scored.
// The free tier allows 150 requests a day for the default model: --limit and --resume spread a run over days, the
// sealed group's releases asked first. The figures are printed for all, then for the sealed group alone (the apps the
// rules never trained on: where the published verdict's target is judged); the sealed group's errors are never listed.
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { modelAsker } from '../src/pipeline/judge-models.ts'
import { checkAnswer, classifyReleases, notesForModel, PROMPT_VERSION } from '../src/classify/index.ts'
import { SEALED_APPS } from '../src/classify/train.ts'
import { CLASSES, metricsOf } from './support/metrics.mjs'
import { contentOf, DEFAULT_MODEL, MODELS_DEFAULT_ENDPOINT } from '../src/upstream/models.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

export async function main(argv, env = process.env, out = (s) => console.log(s)) {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      judge: { type: 'string' },
      answers: { type: 'string' },
      record: { type: 'string' },
      data: { type: 'string' },
      model: { type: 'string', default: DEFAULT_MODEL },
      endpoint: { type: 'string', default: MODELS_DEFAULT_ENDPOINT },
      limit: { type: 'string' },
      interval: { type: 'string', default: '4.2' },
      resume: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false }
    }
  })
  const dataDir = path.resolve(
    values.data ?? env.UPDATESAFE_DATA ?? path.join(root, '..', 'shared', 'data', 'release-notes')
  )
  const readJsonl = (name) =>
    existsSync(path.join(dataDir, name))
      ? readFileSync(path.join(dataDir, name), 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l))
      : []
  const notes = new Map([...readJsonl('notes.jsonl'), ...readJsonl('unlabelled-notes.jsonl')].map((n) => [n.id, n]))
  const labels = readJsonl('dev-labels.jsonl').filter((l) => notes.has(l.id))
  if (labels.length === 0) throw new Error(`no labelled notes in ${dataDir} (dev-labels.jsonl with notes.jsonl)`)

  let recording
  if (values.answers) {
    recording = readRecording(values.answers)
  } else if (values.judge === 'models') {
    const token = env.GITHUB_TOKEN
    if (!token)
      throw new Error(
        '--judge models needs GITHUB_TOKEN (a token with models: read); or score a recording with --answers FILE'
      )
    const file = values.record ?? path.join(root, `model-answers-${values.model.replace(/\W+/g, '-')}.jsonl`)
    // Done: asked of this model with this prompt (a recording of another is asked again).
    const done = new Set()
    if (values.resume && existsSync(file))
      for (const [id, rs] of readRecording(file))
        if (
          rs.some((r) => (r.model ?? values.model) === values.model && (r.prompt ?? PROMPT_VERSION) === PROMPT_VERSION)
        )
          done.add(id)
    // The sealed group first: the apps the rules never trained on are where the published verdict is judged, so a run
    // spread over days gives that figure first.
    const todo = [...labels.filter((l) => sealed(notes, l)), ...labels.filter((l) => !sealed(notes, l))]
      .filter((l) => !done.has(l.id))
      .slice(0, values.limit ? Number(values.limit) : undefined)
    const interval = Number(values.interval) * 1000
    let current = null
    let attempt = 0
    const asker = modelAsker(
      {
        endpoint: values.endpoint,
        token,
        model: values.model,
        maxCalls: todo.length * 2,
        timeoutMs: 60_000,
        deadlineSeconds: 24 * 3600,
        record: (response) =>
          appendFileSync(
            file,
            `${JSON.stringify({ id: current, attempt: ++attempt, model: values.model, prompt: PROMPT_VERSION, response })}\n`
          )
      },
      {
        info: (m) => values.quiet || console.error(m),
        warning: (m) => console.error(`warning: ${m}`),
        error: (m) => console.error(m)
      }
    )
    for (const [i, l] of todo.entries()) {
      if (asker.stopped) break
      const n = notes.get(l.id)
      current = l.id
      attempt = 0
      const t = Date.now()
      await asker.ask(n.app, n.version, n.notes)
      if (!values.quiet) console.error(`${i + 1}/${todo.length} ${l.id}`)
      // The low tier allows 15 requests a minute: keep under it rather than be told to wait.
      const wait = interval * Math.max(1, attempt) - (Date.now() - t)
      if (wait > 0 && i < todo.length - 1) await new Promise((r) => setTimeout(r, wait))
    }
    out(
      `asked ${values.model}: ${asker.calls} requests${asker.stopped ? ` (stopped: ${asker.stopped})` : ''}; answers in ${file}`
    )
    recording = readRecording(file)
  } else {
    throw new Error('bench/judge-models.mjs needs --judge models or --answers FILE')
  }
  return score(labels, notes, recording, out, values.quiet)
}

const SEALED = new Set(SEALED_APPS)
/** Whether a label is of the sealed group: scored apart, its errors never listed. */
const sealed = (notes, l) => SEALED.has(notes.get(l.id)?.slug)

/** id → its responses, in the order recorded. */
function readRecording(file) {
  const byId = new Map()
  for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue
    let r
    try {
      r = JSON.parse(line)
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`)
    }
    if (typeof r?.id !== 'string' || !('response' in r)) throw new Error(`${file}:${i + 1}: not {id, response}`)
    if (!byId.has(r.id)) byId.set(r.id, [])
    byId.get(r.id).push(r)
  }
  return byId
}

/** The answer a build would take from these responses: the first that passes the check (the build retries once). */
function answerOf(responses, text) {
  const sent = notesForModel(text)
  let last = null
  for (const r of responses.slice(0, 2)) {
    const checked = checkAnswer(contentOf(r.response), sent.text)
    if ('answer' in checked)
      return { ...checked.answer, id: r.model ?? 'recorded', prompt: r.prompt ?? PROMPT_VERSION, cut: sent.cut }
    last = checked.error
  }
  return { error: last ?? 'no response' }
}

/** Share of equal pairs and Cohen's kappa. */
function agreement(a, b) {
  const n = a.length
  let same = 0
  const pa = {}
  const pb = {}
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) same++
    pa[a[i]] = (pa[a[i]] ?? 0) + 1
    pb[b[i]] = (pb[b[i]] ?? 0) + 1
  }
  const po = same / n
  const pe = CLASSES.reduce((s, c) => s + ((pa[c] ?? 0) / n) * ((pb[c] ?? 0) / n), 0)
  return { share: po, kappa: pe === 1 ? 1 : (po - pe) / (1 - pe) }
}

function score(labels, notes, recording, out, quiet) {
  const rows = []
  let refused = 0
  let missing = 0
  for (const l of labels) {
    const n = notes.get(l.id)
    const rules = classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })
    const responses = recording.get(l.id)
    if (!responses) {
      missing++
      continue
    }
    const a = answerOf(responses, n.notes)
    if ('error' in a) refused++
    const published =
      'error' in a
        ? rules
        : classifyReleases({ releases: [{ version: n.version, notes: n.notes }], answers: new Map([[n.version, a]]) })
    rows.push({
      id: l.id,
      app: n.app,
      sealed: sealed(notes, l),
      label: l.label,
      rules: rules.safeToUpdate,
      model: 'error' in a ? null : a.class,
      published: published.safeToUpdate
    })
  }
  const f = (x) => x.toFixed(3)
  const line = (name, m) =>
    `${name.padEnd(34)} macro-F1 ${f(m.macroF1)} | over safe/caution/breaking ${f(m.macroF1Three)} | breaking recall ${f(m.breakingRecall)} | breaking called safe ${m.breakingAsSafe} | accuracy ${f(m.accuracy)} | n ${m.n}`
  const answered = rows.filter((r) => r.model !== null)
  const apps = new Set(rows.map((r) => r.app)).size
  const result = {
    published: metricsOf(rows.map((r) => [r.label, r.published])),
    rules: metricsOf(rows.map((r) => [r.label, r.rules])),
    model: metricsOf(answered.map((r) => [r.label, r.model])),
    rulesOnAnswered: metricsOf(answered.map((r) => [r.label, r.rules])),
    agreement: answered.length
      ? agreement(
          answered.map((r) => r.model),
          answered.map((r) => r.rules)
        )
      : null,
    published_vs_rules: rows.length
      ? agreement(
          rows.map((r) => r.published),
          rows.map((r) => r.rules)
        )
      : null,
    refused,
    missing,
    floored: answered.filter((r) => r.published !== r.model).length
  }
  out(
    `model judge on ${rows.length} labelled releases of ${apps} apps (${missing} of ${labels.length} not in the recording; ` +
      `${refused} answers refused by the check, judged by the rules; ${result.floored} answers overruled by the floor)`
  )
  out(line('published (model + rules floor)', result.published))
  out(line('rules alone, same releases', result.rules))
  const held = rows.filter((r) => r.sealed)
  if (held.length > 0) {
    result.sealed = {
      published: metricsOf(held.map((r) => [r.label, r.published])),
      rules: metricsOf(held.map((r) => [r.label, r.rules]))
    }
    out(`of them, the sealed group (${new Set(held.map((r) => r.app)).size} apps the rules never trained on):`)
    out(line('  published (model + rules floor)', result.sealed.published))
    out(line('  rules alone, same releases', result.sealed.rules))
  }
  out(line('model answers alone (answered)', result.model))
  out(line('rules alone, same answered', result.rulesOnAnswered))
  if (result.agreement)
    out(
      `agreement model/rules: ${(100 * result.agreement.share).toFixed(1)}% (kappa ${f(result.agreement.kappa)}); ` +
        `published/rules: ${(100 * result.published_vs_rules.share).toFixed(1)}%`
    )
  out(`confusion of the published verdict (rows: label; columns: ${CLASSES.join(', ')}):`)
  for (const c of CLASSES)
    out(`  ${c.padEnd(9)} ${CLASSES.map((p) => String(result.published.matrix[c][p]).padStart(5)).join('')}`)
  if (!quiet) {
    // The sealed group's errors are never read, so never listed.
    const worst = rows.filter((r) => r.label === 'breaking' && r.published === 'safe' && !r.sealed)
    for (const r of worst) out(`  breaking called safe: ${r.id} (rules ${r.rules}, model ${r.model})`)
  }
  return result
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message)
    process.exitCode = 2
  })
}
