// How a file holding image references is read, by its name: as YAML (Compose, Kubernetes, Helm, Flux,
// Kustomize), as a Dockerfile or as a `.env` file; in each, Renovate's comments too. The PR gate
// (changes.ts) and `check --manifest` (manifest.ts) read files the same way.
import { isDockerfile, readDockerfileRefs } from './dockerfile.js'
import { isEnvFile, readEnvRefs } from './env-file.js'
import { readImageRefs, type FoundRef } from './refs.js'
import { withRenovateRefs } from './renovate-comments.js'

export type FileKind = 'yaml' | 'dockerfile' | 'env' | 'other'

const YAML_FILE = /\.ya?ml$/i

export const kindOf = (file: string): FileKind =>
  YAML_FILE.test(file) ? 'yaml' : isDockerfile(file) ? 'dockerfile' : isEnvFile(file) ? 'env' : 'other'

/**
 * The image references of one file's text, read as its kind says (anything else as YAML), with the versions its
 * Renovate comments name (renovate-comments.ts); or why it cannot be read.
 */
export function readRefs(file: string, kind: FileKind, text: string): { refs: FoundRef[] } | { unreadable: string } {
  const read =
    kind === 'dockerfile'
      ? readDockerfileRefs(file, text)
      : kind === 'env'
        ? readEnvRefs(file, text)
        : readImageRefs(file, text)
  return 'refs' in read ? { refs: withRenovateRefs(file, text, read.refs) } : read
}
