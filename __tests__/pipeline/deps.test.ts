// Which judge the settings give, and what the log says when a model was asked for but cannot be reached.
import { describe, expect, it } from '@jest/globals'
import { modelJudge } from '../../src/pipeline/deps.js'
import type { Logger } from '../../src/util/types.js'

const settings = {
  apiUrl: 'https://api.github.com',
  graphqlUrl: 'https://api.github.com/graphql',
  endoflifeUrl: 'https://endoflife.date'
}

function logged(): { log: Logger; lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    log: {
      info: (m) => lines.push(`info: ${m}`),
      warning: (m) => lines.push(`warning: ${m}`),
      error: (m) => lines.push(`error: ${m}`)
    }
  }
}

describe('modelJudge', () => {
  it('warns that judge "models" needs a token when none is set, and lets the rules judge', () => {
    const { log, lines } = logged()
    expect(modelJudge({ ...settings, token: undefined, judge: 'models' }, log)).toBeNull()
    expect(lines).toEqual([
      'warning: judge "models" needs a GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models, and none is set: the rules judge every release'
    ])
  })

  it('says only why, as information, when no judge was asked for; nothing for judge "rules"', () => {
    const quiet = logged()
    expect(modelJudge({ ...settings, token: undefined }, quiet.log)).toBeNull()
    expect(quiet.lines).toEqual([
      'info: the rules judge every release: there is no GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models'
    ])
    const rules = logged()
    expect(modelJudge({ ...settings, token: 'x', judge: 'rules' }, rules.log)).toBeNull()
    expect(rules.lines).toEqual([])
  })
})
