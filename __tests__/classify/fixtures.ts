// Real release notes from __tests__/fixtures/release-notes (see PROVENANCE.md there).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface NoteEntry {
  id: string
  app: string
  slug: string
  version: string
  notes: string
}

export interface DevLabel {
  id: string
  label: 'safe' | 'caution' | 'breaking' | 'unknown'
  evidence: string
}

export const FIXTURES = fileURLToPath(new URL('../fixtures/release-notes/', import.meta.url))

function readJsonl<T>(name: string): T[] {
  return readFileSync(`${FIXTURES}${name}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)
}

export const NOTES: NoteEntry[] = readJsonl<NoteEntry>('notes.jsonl')
export const LABELS: DevLabel[] = readJsonl<DevLabel>('dev-labels.jsonl')

export function note(id: string): NoteEntry {
  const n = NOTES.find((e) => e.id === id)
  if (!n) throw new Error(`no fixture entry ${id}`)
  return n
}
