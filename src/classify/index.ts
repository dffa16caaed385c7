// Public face of the classifier: the pipeline and the CLI import from here.
export {
  classifyReleases,
  MAX_RELEASES,
  CLASSIFIER_DIGEST,
  JUDGING_REVISION,
  type Judgement,
  type JudgeAnswer,
  type ReleaseVerdict
} from './classifier.js'
export { checkAnswer, normaliseSpace, type ModelAnswer } from './model-answer.js'
export { applyFloor, type RulesFloor } from './floor.js'
export { notesForModel, PROMPT_NOTES_CAP, PROMPT_VERSION, SYSTEM_PROMPT, promptNotes, userPrompt } from './prompt.js'
export { applyOverride } from './override.js'
export { SUMMARY_MAX, summarise, EMPTY_SUMMARY } from './summary.js'
export { NOTES_CAP } from './text.js'
export {
  classifyJsonl,
  classifyRecord,
  JsonlInputError,
  jsonlInputSchema,
  type JsonlInput,
  type JsonlOutput
} from './jsonl.js'
export { gapsCrossed, unreadWords, verdictFrom, SEVERITY, type ReleaseGap, type UpgradeVerdict } from './upgrade.js'
