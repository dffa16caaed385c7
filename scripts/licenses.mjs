#!/usr/bin/env node
// Writes <dir>/licenses.txt for each bundle directory given, naming every
// third-party package whose code is in that bundle, with its licence text.
//
// Why not ncc's --license: when ncc splits a bundle into chunks it writes the
// licences of one chunk only, so the main bundles shipped marked, yaml, zod,
// badge-maker and others without their notices. The source maps list every
// bundled file, so they are the record of what each directory ships.
//
// Usage: node scripts/licenses.mjs dist dist/cli
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const LICENSE_FILE = /^(licen[cs]e|copying|notice)([-._].*)?$/i

/** The package directory a bundled source lies in, relative to the project. */
export function packageDir(source) {
  const at = source.lastIndexOf('node_modules/')
  if (at < 0) return null
  const rest = source.slice(at + 'node_modules/'.length).split('/')
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
  const start = source.indexOf('node_modules/')
  return source.slice(start, at + 'node_modules/'.length + name.length)
}

/** Every package directory named by the source maps in one bundle directory. */
export function bundledPackages(dir) {
  const found = new Set()
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.js.map'))
    .sort()) {
    const { sources } = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    for (const source of sources) {
      const pkg = packageDir(source)
      if (pkg) found.add(pkg)
    }
  }
  return [...found]
}

/** One entry in ncc's format: name, licence identifier, licence text. */
export function entry(root, pkgDir) {
  const abs = resolve(root, pkgDir)
  const meta = JSON.parse(readFileSync(join(abs, 'package.json'), 'utf8'))
  const license = typeof meta.license === 'string' ? meta.license : (meta.license?.type ?? 'UNKNOWN')
  const texts = readdirSync(abs)
    .filter((f) => LICENSE_FILE.test(f))
    .sort()
    .map((f) => readFileSync(join(abs, f), 'utf8').trim())
  const text =
    texts.length > 0
      ? texts.join('\n\n')
      : `The package ships no licence file; its package.json declares ${license}` +
        (meta.author ? `, author ${typeof meta.author === 'string' ? meta.author : meta.author.name}.` : '.')
  return `${meta.name}\n${license}\n${text}`
}

export function licensesFor(root, dir) {
  // The same package may be bundled from two places (a nested copy): one entry per
  // distinct text. Each entry starts with the package name, so sorting orders by name.
  return [...new Set(bundledPackages(dir).map((pkg) => entry(root, pkg)))].sort().join('\n\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.cwd()
  for (const dir of process.argv.slice(2)) {
    const out = join(dir, 'licenses.txt')
    const text = licensesFor(root, dir)
    if (text === '') {
      if (existsSync(out)) rmSync(out)
      continue
    }
    writeFileSync(out, `${text}\n`)
  }
}
