// Which judge the settings give, and what the log says when a model was asked for but cannot be reached.
import { describe, expect, it } from '@jest/globals'
import { buildDeps, modelJudge } from '../../src/pipeline/deps.js'
import { recorder } from '../support/log.js'

const settings = {
  apiUrl: 'https://api.github.com',
  graphqlUrl: 'https://api.github.com/graphql',
  endoflifeUrl: 'https://endoflife.date'
}

describe('modelJudge', () => {
  it('warns that judge "models" needs a token when none is set, and lets the rules judge', () => {
    const { log, lines } = recorder()
    expect(modelJudge({ ...settings, token: undefined, judge: 'models' }, log)).toBeNull()
    expect(lines).toEqual([
      'warning: judge "models" needs a GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models, and none is set: the rules judge every release'
    ])
  })

  it('says only why, as information, when no judge was asked for; nothing for judge "rules"', () => {
    const quiet = recorder()
    expect(modelJudge({ ...settings, token: undefined }, quiet.log)).toBeNull()
    expect(quiet.lines).toEqual([
      'info: the rules judge every release: there is no GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models'
    ])
    const rules = recorder()
    expect(modelJudge({ ...settings, token: 'x', judge: 'rules' }, rules.log)).toBeNull()
    expect(rules.lines).toEqual([])
  })

  it('is said by the build once it has accepted its inputs, not when the clients are made', () => {
    const { log, lines } = recorder()
    const deps = buildDeps({ ...settings, token: undefined, judge: 'models' }, log, new Date('2026-12-03T00:00:00Z'))
    expect(lines).toEqual([])
    expect(deps.judgeNotes).toEqual([
      {
        level: 'warning',
        text: 'judge "models" needs a GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models, and none is set: the rules judge every release'
      }
    ])
  })
})
