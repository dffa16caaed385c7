// The floor under a model's answer (issue 59), measured by cross-validation grouped by app: for each kind of
// floor trigger, how often it fires on releases labelled safe and the misfire rate chooseFloorKinds estimates; the
// kinds each fold keeps (chooseFloorKinds on the other folds' labels alone); a perfect reader (the labels as answers) under each fold's floor; and the recorded
// reader answers of the data set, published (under the floor) against the reader alone. The sealed group is scored
// by the committed model and FLOOR_KINDS, aggregates only.
import { existsSync, readFileSync } from 'node:fs'
import { cuesOf, floorGroupOf, floorKindsOf } from '../../src/classify/cues.ts'
import { applyFloor, chooseFloorKinds, countFloorKinds, FLOOR_KINDS } from '../../src/classify/floor.ts'
import { namesSafe } from '../../src/classify/injection.ts'
import { plainNotes } from '../../src/classify/text.ts'
import { judgeRelease } from '../../src/classify/judge.ts'
import { checkAnswer } from '../../src/classify/model-answer.ts'
import { notesForModel } from '../../src/classify/prompt.ts'
import { MODEL } from '../../src/classify/trained.ts'
import { contentOf } from '../../src/upstream/models.ts'
import { metricsOf } from './metrics.mjs'

/** Today's floor before issue 59: every kind, and an unknown answer gives caution at least. */
function floorBefore(answer, r) {
  const forbidden =
    (answer.class === 'safe' && (r.kinds.length > 0 || r.cut)) || (answer.class === 'unknown' && r.described)
  if (!forbidden) return answer.class
  const cautious = r.safeToUpdate === 'breaking' ? 'breaking' : 'caution'
  return answer.class === 'breaking' ? 'breaking' : cautious
}

/** The first recorded answer that passes the check (the build retries once), or null. */
function answerOf(responses, text) {
  const sent = notesForModel(text)
  for (const r of (responses ?? []).slice(0, 2)) {
    const checked = checkAnswer(contentOf(r.response), sent.text)
    if ('answer' in checked) return { ...checked.answer, cut: sent.cut }
  }
  return null
}

function readAnswers(file) {
  const byId = new Map()
  if (!existsSync(file)) return byId
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const r = JSON.parse(line)
    if (!byId.has(r.id)) byId.set(r.id, [])
    byId.get(r.id).push(r)
  }
  return byId
}

/**
 * @param {object} o
 * @param {{id: string, app: string}[]} o.examples the training apps' labelled releases
 * @param {Map<string, number>} o.foldOf app → fold
 * @param {object[]} o.foldModels the model of each fold (trained without its apps)
 * @param {Map<string, object>} o.byId notes by id
 * @param {Map<string, {label: string}>} o.labels labels by id (training apps)
 * @param {{id: string, label: string}[]} o.sealed the sealed group's labels
 * @param {URL} o.dir the data set's release-notes folder
 */
export function floorFigures({ examples, foldOf, foldModels, byId, labels, sealed, dir, out = console.log }) {
  const folds = foldModels.length
  const answers = readAnswers(new URL('reader-answers-prompt-v1.jsonl', dir))
  // What the floor reads of each release: model-independent, so read once (with the committed model).
  const read = (id, model) => {
    const n = byId.get(id)
    const j = judgeRelease(n.notes, n.version, model)
    // described: what the floor before issue 59 read (a line says what changed).
    const described = j.floor.evidence.length > 0 && cuesOf(j.floor.evidence).described
    const saysSafe = namesSafe(plainNotes(n.notes).text)
    return { rules: j.safeToUpdate, kinds: floorKindsOf(j.floor.evidence), described, cut: j.cut, saysSafe }
  }
  const rows = examples.map((e) => {
    const r = read(e.id, foldModels[foldOf.get(e.app)])
    return { id: e.id, app: e.app, fold: foldOf.get(e.app), label: labels.get(e.id).label, ...r }
  })
  // Per fold: the kinds kept, chosen on the other folds' labels alone.
  const keptBy = []
  for (let g = 0; g < folds; g++) keptBy.push(chooseFloorKinds(countFloorKinds(rows.filter((r) => r.fold !== g))))

  const all = countFloorKinds(rows)
  const cvMisfires = new Map()
  // Every kind some fold keeps or some release shows: a fold may keep a kind only the apps it holds out show.
  const kinds = [...new Set([...all.kinds.keys(), ...keptBy.flat()])].sort()
  for (const k of kinds) cvMisfires.set(k, 0)
  const verdicts = { perfectBefore: [], perfectAll: [], perfect: [], reader: [], publishedBefore: [], published: [] }
  let answered = 0
  // Answers the floor overruled (CV): how many it made right, made wrong, or left wrong.
  const overruled = { n: 0, right: 0, wrong: 0, still: 0 }
  for (const r of rows) {
    const kept = keptBy[r.fold]
    const rf = { safeToUpdate: r.rules, kinds: r.kinds, cut: r.cut, described: r.described, namesSafe: r.saysSafe }
    if (r.label === 'safe') for (const k of r.kinds) if (kept.includes(k)) cvMisfires.set(k, cvMisfires.get(k) + 1)
    const perfect = { class: r.label }
    verdicts.perfectBefore.push([r.label, floorBefore(perfect, rf)])
    verdicts.perfectAll.push([r.label, applyFloor(perfect, rf, kinds).safeToUpdate])
    verdicts.perfect.push([r.label, applyFloor(perfect, rf, kept).safeToUpdate])
    const a = answerOf(answers.get(r.id), byId.get(r.id).notes)
    if (a === null) continue
    answered++
    const rfA = { ...rf, cut: r.cut || a.cut }
    verdicts.reader.push([r.label, a.class])
    verdicts.publishedBefore.push([r.label, floorBefore(a, rfA)])
    const p = applyFloor(a, rfA, kept).safeToUpdate
    verdicts.published.push([r.label, p])
    if (p !== a.class) {
      overruled.n++
      if (p === r.label) overruled.right++
      else if (a.class === r.label) overruled.wrong++
      else overruled.still++
    }
  }

  const f = (x) => x.toFixed(3)
  const safeN = rows.filter((r) => r.label === 'safe').length
  out(`\n== the floor under a model's answer, CROSS-VALIDATED BY APP (${rows.length} releases, ${safeN} labelled safe)`)
  out(
    'kind of floor trigger        fires  on safe  caution breaking unknown   est. rate  kept in folds  CV fires on safe when kept  group'
  )
  // The columns a kind and a group share: its counts, the labels of the releases it fires on, its estimated rate.
  const counted = (name, c, fires) => {
    const by = (cls) => rows.filter((r) => r.label === cls && fires(r)).length
    return `${name.padEnd(28)} ${String(c.fired).padStart(5)}  ${String(c.misfired).padStart(7)}  ${String(by('caution')).padStart(7)} ${String(by('breaking')).padStart(8)} ${String(by('unknown')).padStart(7)}  ${f((c.misfired + 1) / (c.fired + 2)).padStart(10)}`
  }
  for (const k of kinds) {
    const c = all.kinds.get(k) ?? { fired: 0, misfired: 0 }
    out(
      `${counted(k, c, (r) => r.kinds.includes(k))}  ${String(keptBy.filter((kept) => kept.includes(k)).length).padStart(8)}/${folds}  ${String(cvMisfires.get(k)).padStart(10)}  ${floorGroupOf(k)}`
    )
  }
  // A kind too seldom seen to judge alone is judged with its group (chooseFloorKinds), a release counted once.
  for (const [g, c] of [...all.groups].sort())
    out(counted(`group: ${g}`, c, (r) => r.kinds.some((k) => floorGroupOf(k) === g)))
  const saysN = rows.filter((r) => r.saysSafe)
  out(
    `notes that say "safe"        ${String(saysN.length).padStart(5)}  ${String(saysN.filter((r) => r.label === 'safe').length).padStart(7)}   (a safe answer gives way where the rules say caution or breaking)`
  )
  const cutN = rows.filter((r) => r.cut)
  out(
    `notes cut (never safe)       ${String(cutN.length).padStart(5)}  ${String(cutN.filter((r) => r.label === 'safe').length).padStart(7)}   (always kept)`
  )
  const unknownOver = rows.filter((r) => r.described && !r.kinds.some((k) => FLOOR_KINDS.includes(k)))
  out(
    `a line says what changed but no kept kind fires: ${unknownOver.length} releases, ${unknownOver.filter((r) => r.label === 'unknown').length} labelled unknown (an unknown answer stands there; before issue 59 it gave caution)`
  )
  out(
    `kept by the committed floor (FLOOR_KINDS): ${FLOOR_KINDS.length ? FLOOR_KINDS.join(', ') : 'none'}; ` +
      `chosen on all ${rows.length} here: ${chooseFloorKinds(all).join(', ') || 'none'}`
  )
  const line = (name, pairs) => {
    const m = metricsOf(pairs)
    return `${name.padEnd(48)} macro-F1 ${f(m.macroF1)} (${m.macroF1.toFixed(5)}) | 3-class ${f(m.macroF1Three)} | breaking recall ${f(m.breakingRecall)} | breaking called safe ${m.breakingAsSafe} | accuracy ${f(m.accuracy)} | n ${m.n}`
  }
  out(line('perfect reader under the floor (CV; target >= 0.98)', verdicts.perfect))
  out(line('  under every kind (no choice)', verdicts.perfectAll))
  out(line('  under the floor before issue 59', verdicts.perfectBefore))
  out(`recorded reader answers (reader-answers-prompt-v1.jsonl; ${answered} of ${rows.length} answered):`)
  out(line('  reader alone', verdicts.reader))
  out(line('  published: reader under the floor (CV)', verdicts.published))
  out(
    `  the floor overruled ${overruled.n} answers: ${overruled.right} made right, ${overruled.wrong} made wrong, ${overruled.still} stayed wrong`
  )
  out(line('  published under the floor before issue 59', verdicts.publishedBefore))
  // Issue 59's criteria, cross-validated by app.
  const [pm, rm, pub] = [verdicts.perfect, verdicts.reader, verdicts.published].map(metricsOf)
  const met = (ok) => (ok ? 'met' : 'NOT met')
  out(
    `targets (CV): perfect reader loses <= 0.02 ${met(1 - pm.macroF1 <= 0.02)} (${f(pm.macroF1)}); ` +
      `published no worse than the reader alone ${met(pub.macroF1 >= rm.macroF1)} (${pub.macroF1.toFixed(5)} against ${rm.macroF1.toFixed(5)}); ` +
      `no breaking release published safe ${met(pub.breakingAsSafe === 0)} (${pub.breakingAsSafe})`
  )

  // The sealed group: the committed model and FLOOR_KINDS; aggregates only, never an error.
  const s = { perfect: [], reader: [], published: [], publishedBefore: [] }
  for (const l of sealed) {
    const r = read(l.id, MODEL)
    const rf = { safeToUpdate: r.rules, kinds: r.kinds, described: r.described, cut: r.cut, namesSafe: r.saysSafe }
    s.perfect.push([l.label, applyFloor({ class: l.label }, rf).safeToUpdate])
    const a = answerOf(answers.get(l.id), byId.get(l.id).notes)
    if (a === null) continue
    const rfA = { ...rf, cut: r.cut || a.cut }
    s.reader.push([l.label, a.class])
    s.published.push([l.label, applyFloor(a, rfA).safeToUpdate])
    s.publishedBefore.push([l.label, floorBefore(a, rfA)])
  }
  out(`SEALED group (${sealed.length} releases; committed model and floor; aggregates only):`)
  out(line('  perfect reader under the floor', s.perfect))
  out(line('  reader alone', s.reader))
  out(line('  published: reader under the floor', s.published))
  out(line('  published under the floor before issue 59', s.publishedBefore))
  return { verdicts, sealed: s, keptBy }
}
