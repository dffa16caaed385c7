import { createDefaultEsmPreset } from 'ts-jest'

/** @type {import('jest').Config} */
export default {
  ...createDefaultEsmPreset({ tsconfig: 'tsconfig.test.json' }),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/site/', '<rootDir>/.tmp/'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  // Jest's default is one worker fewer than the cores: on a 2-core machine (CI) that is one, and the whole suite
  // ran serially in one process. Much of it waits on processes it starts (CLI builds, Chromium, git), so one
  // worker per core finishes sooner.
  maxWorkers: '100%'
}
