// Lint: typescript-eslint's recommended rules over the sources, tests, benches and scripts.
// Formatting is Prettier's job (npm run format); this catches mistakes, not style.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['dist/', 'site/', 'node_modules/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
      ],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }]
    }
  },
  {
    files: ['src/render/assets.ts', 'src/site/assets.ts', 'scripts/screenshots.mjs', '__tests__/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } }
  }
)
