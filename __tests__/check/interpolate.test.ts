// Compose's interpolation forms, each with a made-up variable: what is set, empty or unset decides.
import { describe, expect, it } from '@jest/globals'
import { interpolate } from '../../src/check/interpolate.js'

const env = { TAG: '1.2.3', EMPTY: '', REG: 'ghcr.io' }
const value = (text: string) => interpolate(text, env)

describe('interpolate', () => {
  it('replaces $VAR and ${VAR}, and reads $$ as one dollar', () => {
    expect(value('app:$TAG')).toEqual({ value: 'app:1.2.3' })
    expect(value('${REG}/app:${TAG}-alpine')).toEqual({ value: 'ghcr.io/app:1.2.3-alpine' })
    expect(value('app:$${TAG}')).toEqual({ value: 'app:${TAG}' })
    expect(value('a$$$TAG')).toEqual({ value: 'a$1.2.3' })
    expect(value('no variables')).toEqual({ value: 'no variables' })
  })

  it('takes :- defaults for unset or empty, - defaults for unset only, and nested defaults', () => {
    expect(value('app:${NOPE:-2.0}')).toEqual({ value: 'app:2.0' })
    expect(value('app:${EMPTY:-2.0}')).toEqual({ value: 'app:2.0' })
    expect(value('app:${EMPTY-2.0}')).toEqual({ value: 'app:' })
    expect(value('app:${NOPE-2.0}')).toEqual({ value: 'app:2.0' })
    expect(value('app:${TAG:-2.0}')).toEqual({ value: 'app:1.2.3' })
    expect(value('app:${NOPE:-${TAG}}')).toEqual({ value: 'app:1.2.3' })
    expect(value('app:${NOPE:-${ALSO:-x}}')).toEqual({ value: 'app:x' })
    // A default that is not used is not read: its unset variable is no problem.
    expect(value('app:${TAG:-${NOPE}}')).toEqual({ value: 'app:1.2.3' })
  })

  it('reports an unset variable without a default instead of emptying it', () => {
    expect(value('app:${NOPE}')).toEqual({ problem: expect.stringContaining('uses ${NOPE}, which is not set') })
    expect(value('app:$NOPE')).toEqual({ problem: expect.stringContaining('${NOPE}') })
    expect(value('app:${NOPE:-${ALSO}}')).toEqual({ problem: expect.stringContaining('${ALSO}') })
    // An empty variable is set: Compose writes it out empty.
    expect(value('app:${EMPTY}')).toEqual({ value: 'app:' })
  })

  it('follows :? ? :+ and +', () => {
    expect(value('${NOPE:?say which}')).toEqual({ problem: 'needs NOPE set and not empty: say which' })
    expect(value('${EMPTY:?x}')).toHaveProperty('problem')
    expect(value('${EMPTY?x}')).toEqual({ value: '' })
    expect(value('app${TAG:+:$TAG}')).toEqual({ value: 'app:1.2.3' })
    expect(value('app${EMPTY:+:x}')).toEqual({ value: 'app' })
    expect(value('app${EMPTY+:x}')).toEqual({ value: 'app:x' })
    expect(value('app${NOPE+:x}')).toEqual({ value: 'app' })
  })

  it('refuses what is not a variable', () => {
    expect(value('app:${TAG')).toHaveProperty('problem')
    expect(value('app:${1X}')).toHaveProperty('problem')
    expect(value('app:$1')).toHaveProperty('problem')
    expect(value('app:${}')).toHaveProperty('problem')
    expect(value(`${'${A:-'.repeat(40)}x${'}'.repeat(40)}`)).toHaveProperty('problem')
  })
})
