import { describe, expect, it } from '@jest/globals'
import { redact, redactingLogger } from '../../src/util/redact.js'
import type { Logger } from '../../src/util/types.js'

const CLASSIC = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`
const FINE = `github_pat_11ABCDEFG0_${'x'.repeat(40)}`

describe('redact', () => {
  it('removes the run’s token value and every GitHub-token-shaped word', () => {
    for (const prefix of ['ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_']) {
      const t = `${prefix}${'Zz09'.repeat(9)}`
      expect(redact(`401: Bad credentials for token ${t}.`)).toBe('401: Bad credentials for token ***.')
    }
    expect(redact(`Authorization: Bearer ${FINE}`)).toBe('Authorization: Bearer ***')
    expect(redact('echo: token my-enterprise-token-value!', ['my-enterprise-token-value'])).toBe('echo: token ***!')
    expect(redact(`${CLASSIC} and ${CLASSIC}`, [CLASSIC])).toBe('*** and ***')
  })

  it('removes the credential of an Authorization header and the user:password of a URL', () => {
    expect(redact(`curl: Authorization: Bearer ${'k9'.repeat(12)}`)).toBe('curl: Authorization: Bearer ***')
    expect(redact(`Authorization: token ${'0a'.repeat(20)}`)).toBe('Authorization: token ***')
    expect(redact(`Basic ${Buffer.from('reader:password-1234').toString('base64')}`)).toBe('Basic ***')
    expect(redact('fetch http://user:pa55@host:8080/x failed')).toBe('fetch http://***@host:8080/x failed')
    expect(redact('Bearer authentication and a token count, https://host/path@v1')).toBe(
      'Bearer authentication and a token count, https://host/path@v1'
    )
  })

  it('leaves ordinary text alone: short secrets, words that only start like a token', () => {
    expect(redact('the ghp_ prefix and ghs_short', ['x', ''])).toBe('the ghp_ prefix and ghs_short')
    expect(redact('a x b', ['x'])).toBe('a x b')
  })

  it('wraps a logger, locations kept', () => {
    const lines: string[] = []
    const sink: Logger = {
      info: (m) => lines.push(`info ${m}`),
      warning: (m, ref) => lines.push(`warning ${ref?.file ?? ''} ${m}`),
      error: (m) => lines.push(`error ${m}`)
    }
    const log = redactingLogger(sink, ['sekret-value-1'])
    log.info('sekret-value-1')
    log.warning(`x ${CLASSIC}`, { file: 'a.yml' })
    log.error(`y ${FINE}`)
    expect(lines).toEqual(['info ***', 'warning a.yml x ***', 'error y ***'])
  })
})
