// The program's version, from package.json: a JSON import that ncc bundles in, so the CLI needs
// no package.json beside it.
import pkg from '../../package.json' with { type: 'json' }

export const VERSION: string = pkg.version
