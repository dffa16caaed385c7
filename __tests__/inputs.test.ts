import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  cnameBaseUrl,
  defaultBaseUrl,
  pagesUrlFor,
  resolveBaseUrl,
  sourceCommit,
  upstreamSettings
} from '../src/inputs.js'
import type { Logger } from '../src/util/types.js'
import { tempDir } from './support/tmp.js'

describe('inputs', () => {
  it('derives the GitHub Pages address of a repository', () => {
    expect(pagesUrlFor('Octo-Org/updatesafe')).toBe('https://octo-org.github.io/updatesafe')
    expect(pagesUrlFor('octo/octo.github.io')).toBe('https://octo.github.io')
    expect(defaultBaseUrl({ GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'me/cat' })).toBe('https://me.github.io/cat')
    expect(defaultBaseUrl({ GITHUB_REPOSITORY: 'me/cat' })).toBe('http://localhost:8080')
  })

  it('takes the token from the action input before the environment, and an empty one as none', () => {
    expect(upstreamSettings({ GITHUB_TOKEN: 'env' }, { token: 'input' }).token).toBe('input')
    expect(upstreamSettings({ GITHUB_TOKEN: 'env' }).token).toBe('env')
    expect(upstreamSettings({ GITHUB_TOKEN: '' }).token).toBeUndefined()
    expect(upstreamSettings({}).endoflifeUrl).toBe('https://endoflife.date')
  })

  it('reads the judge settings: models or rules, a model id, an http(s) endpoint, a whole number of calls', () => {
    expect(upstreamSettings({})).toMatchObject({
      models: ['openai/gpt-4.1-mini'],
      modelsEndpoint: 'https://models.github.ai/inference',
      maxModelCalls: 100
    })
    expect(upstreamSettings({}).judge).toBeUndefined()
    const s = upstreamSettings(
      {},
      {
        judge: 'rules',
        model: 'openai/gpt-4o-mini',
        modelsEndpoint: 'http://127.0.0.1:9/inference/',
        maxModelCalls: '0'
      }
    )
    expect(s).toMatchObject({
      judge: 'rules',
      models: ['openai/gpt-4o-mini'],
      modelsEndpoint: 'http://127.0.0.1:9/inference',
      maxModelCalls: 0
    })
    expect(() => upstreamSettings({}, { judge: 'model' })).toThrow('judge "model" is not "models" or "rules"')
    expect(() => upstreamSettings({}, { model: 'gpt 4' })).toThrow('is not a model id')
    // An ordered list, by commas or lines (a YAML block): asked in that order.
    expect(upstreamSettings({}, { model: 'openai/gpt-4.1, openai/gpt-4.1-mini' }).models).toEqual([
      'openai/gpt-4.1',
      'openai/gpt-4.1-mini'
    ])
    expect(upstreamSettings({}, { model: 'openai/gpt-4.1\nopenai/gpt-4.1-mini\n' }).models).toHaveLength(2)
    expect(() => upstreamSettings({}, { model: 'openai/gpt-4.1,openai/gpt-4.1' })).toThrow('is listed twice')
    expect(() => upstreamSettings({}, { model: 'openai/gpt-4.1, gpt 4' })).toThrow('model "gpt 4" is not a model id')
    expect(() => upstreamSettings({}, { modelsEndpoint: 'file:///etc' })).toThrow('is not an http(s) address')
    // The token goes only over https, or in the clear to this machine alone.
    expect(() => upstreamSettings({}, { modelsEndpoint: 'http://models.example.org/inference' })).toThrow(
      'models-endpoint "http://models.example.org/inference" must be an https address (plain http only to 127.0.0.0/8, ::1 or localhost)'
    )
    // Credentials in the address are refused at the start, and the message does not repeat them.
    expect(() => upstreamSettings({}, { modelsEndpoint: 'http://s3cret-t0ken@127.0.0.1:9/inference' })).toThrow(
      /^models-endpoint "http:\/\/127\.0\.0\.1:9\/inference" holds a user name or password/
    )
    expect(upstreamSettings({}, { modelsEndpoint: 'http://localhost:8080/inference' }).modelsEndpoint).toBe(
      'http://localhost:8080/inference'
    )
    expect(upstreamSettings({}, { modelsEndpoint: 'https://models.example.org/v1/' }).modelsEndpoint).toBe(
      'https://models.example.org/v1'
    )
    expect(() => upstreamSettings({}, { maxModelCalls: '2.5' })).toThrow('max-model-calls "2.5" is not a whole number')
  })

  it('takes the source commit from --source-commit, else GITHUB_SHA; only a full SHA', () => {
    const sha = 'B26255F'.padEnd(40, 'a')
    expect(sourceCommit({ GITHUB_SHA: sha })).toBe(sha.toLowerCase())
    expect(sourceCommit({ GITHUB_SHA: 'main' })).toBeNull()
    expect(sourceCommit({})).toBeNull()
    expect(sourceCommit({ GITHUB_SHA: sha }, 'c'.repeat(40))).toBe('c'.repeat(40))
    expect(() => sourceCommit({}, 'HEAD')).toThrow('--source-commit "HEAD" is not a 40-character commit SHA')
  })

  it("takes the base URL from the previous snapshot's CNAME, refusing a FIFO or a folder there before reading it", async () => {
    const { dir, cleanup } = await tempDir()
    const warnings: string[] = []
    const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: () => {} }
    const env = { GITHUB_REPOSITORY: 'me/cat' }
    const prev = (name: string) => path.join(dir, name)
    await mkdir(prev('plain'))
    await writeFile(prev('plain/CNAME'), 'updates.example.org\n')
    expect(await resolveBaseUrl(undefined, prev('plain'), env, log)).toBe('https://updates.example.org')
    await mkdir(prev('none'))
    expect(await resolveBaseUrl(undefined, prev('none'), env, log)).toBe('http://localhost:8080')
    expect(warnings).toEqual([])
    await mkdir(prev('fifo'))
    expect(spawnSync('mkfifo', [prev('fifo/CNAME')]).status).toBe(0)
    expect(await resolveBaseUrl(undefined, prev('fifo'), env, log)).toBe('http://localhost:8080')
    await mkdir(prev('folder/CNAME'), { recursive: true })
    expect(await resolveBaseUrl(undefined, prev('folder'), env, log)).toBe('http://localhost:8080')
    expect(warnings).toEqual([
      `${prev('fifo/CNAME')} is not a regular file (a folder, a device or a pipe is never read); using the default base URL`,
      `${prev('folder/CNAME')} is not a regular file (a folder, a device or a pipe is never read); using the default base URL`
    ])
    await cleanup()
  })

  it('reads the domain of a Pages CNAME file, and nothing else', () => {
    expect(cnameBaseUrl('updates.example.org\n')).toBe('https://updates.example.org')
    expect(cnameBaseUrl('  Docs.Example.ORG.\r\n\n')).toBe('https://docs.example.org')
    expect(cnameBaseUrl('')).toBeNull()
    expect(cnameBaseUrl('localhost')).toBeNull()
    expect(cnameBaseUrl('https://x.example.org')).toBeNull()
    expect(cnameBaseUrl('a.example.org\nb.example.org')).toBeNull()
    expect(cnameBaseUrl('evil.example.org/path')).toBeNull()
    expect(cnameBaseUrl('x.example.org:8443')).toBeNull()
  })
})
