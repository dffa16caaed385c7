// Public face of the classifier: the pipeline and the CLI import from here.
export {
  classifyReleases,
  MAX_RELEASES,
  CLASSIFIER_DIGEST,
  JUDGING_REVISION,
  type Judgement,
  type ReleaseVerdict
} from './classifier.js'
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
export { verdictFrom, SEVERITY, type UpgradeVerdict } from './upgrade.js'
