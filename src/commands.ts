// The CLI commands (build, serve, classify, validate): parse flags and call the
// same code the action runs. Logs go to stderr so stdout carries only data.
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { buildDeps } from './pipeline/deps.js'
import { addRecord } from './catalog/add.js'
import { futureDays, loadCatalog } from './catalog/load.js'
import { utcDay } from './util/dates.js'
import { classifyJsonl } from './classify/jsonl.js'
import { build } from './pipeline/pipeline.js'
import { serveSite } from './output/serve.js'
import type { Logger } from './util/types.js'
import { resolveBaseUrl, sourceCommit, upstreamSettings } from './inputs.js'
import { closingLine, exitStatus, formatProblem, problem, ProblemsError } from './util/problems.js'
import { redactingLogger } from './util/redact.js'
import { escapeUnsafe, noCommands } from './util/text.js'
import { didYouMean } from './util/suggest.js'
import { readComposeFile } from './check/compose.js'
import { readManifests } from './check/manifest.js'
import { gateStatus, parseFailOn, type FailOn } from './check/gate.js'
import { imageSourceLabel } from './check/oci.js'
import { cachedResolve } from './check/resolve.js'
import { runCheck, type FromArg } from './check/report.js'
import { checkJson, checkTable } from './check/table.js'
import { snapshotReader } from './check/snapshot.js'
import { SLUG_PATTERN } from './schema/index.js'
import { isVersionLabel } from './util/versions.js'
import { VERSION } from './util/version.js'
import { readRegularText, unopenableFile } from './util/regular-file.js'
import { NOTES_FILE_MAX_BYTES } from './upstream/notes-file.js'

/** Each command's own help (`updatesafe COMMAND --help`), with examples. */
const HELP: Record<string, string> = {
  build: `  build     --catalog DIR --out DIR [--base-url URL] [--refresh | --notes-from FILE ...]
            [--previous DIR] [--now ISO] [--request-timeout SECONDS] [--refresh-deadline SECONDS]
            [--source-commit SHA]
            [--judge models|rules] [--model ID ...] [--models-endpoint URL] [--max-model-calls N]
            [--only SLUG ...] [--demo]
            Build the static site (JSON API, pages, badges) from the catalog.
            Release notes come from GitHub (--refresh) or from a JSON-lines file
            (--notes-from, one release a line: {repo, version, tag, date, notes};
            repeatable: the files are read as one, a release two hold read with
            both notes, the first file's tag and date kept);
            without either, the catalog's release facts are published unjudged.
            --refresh reads GitHub (GITHUB_TOKEN, GITHUB_API_URL, GITHUB_GRAPHQL_URL)
            and endoflife.date (ENDOFLIFE_API_URL), each request waiting at most
            --request-timeout (20 s), the whole refresh at most --refresh-deadline
            (600 s); --previous is the published snapshot used as last-known-good.
            --source-commit (default GITHUB_SHA) is published in api/v1/status.json.
            --judge models (the default where GITHUB_TOKEN is set) asks GitHub Models
            (--model, default openai/gpt-4.1-mini, or an ordered list asked in turn
            as each one's daily limit is spent: ID,ID… or --model repeated, each
            adding to the list; --models-endpoint, default
            https://models.github.ai/inference) about each release not judged before,
            at most --max-model-calls (100) requests a run to each, the rest by the rules;
            the rules stay the floor. --judge rules never asks a model.
            --only builds those apps alone, a preview (with --refresh and
            GITHUB_TOKEN: of what GitHub says of them now).
            --demo says on every page that the apps are made up (npm start's
            demo of demo/catalog, when it has no notes and no token).
            Examples:
              updatesafe build --catalog catalog --out site
              GITHUB_TOKEN=... updatesafe build --refresh --only miniflux --out preview
`,
  serve: `  serve     --dir DIR [--port PORT] [--host 127.0.0.1]
            Serve a built site with GitHub Pages semantics. The port is --port,
            else the PORT environment variable, else 8080.
            Example:
              updatesafe serve --dir site --port 8080
`,
  classify: `  classify  --jsonl FILE | --notes-file FILE
            Classify release notes; one JSON line per input line on stdout.
            Example:
              updatesafe classify --notes-file NOTES.md
`,
  validate: `  validate  --catalog DIR
            Check every catalog record; exit 1 on any error. Warns about a
            record without release facts: a build publishes it as unknown until
            --refresh or --notes-from reads its releases.
            Example:
              updatesafe validate --catalog catalog
`,
  add: `  add       OWNER/REPO [--image NAME ...] [--slug SLUG] [--catalog DIR] [--now ISO]
            Write a new record, DIR/apps/SLUG.yml (never over an existing one).
            With GITHUB_TOKEN it records GitHub's facts: the repository, whether
            it is archived, its latest release (version, page, date, the day
            read); without, a minimal record, published as unknown until
            build --refresh or --notes-from reads its releases.
            Example:
              updatesafe add traefik/traefik --image traefik
`,
  check: `  check     --api URL|DIR [--from APP=VERSION ...] [--compose FILE ...]
            [--manifest FILE|DIR ...] [--json]
            [--fail-on breaking|caution|unknown|never] [--allow-urgent]
            [--allow-unjudged-major] [--resolve-images]
            Judge the update from the version you run to the latest, for each app
            named by --from or found through a Compose service's image or an
            image of a --manifest (Kubernetes manifests, Helm values, Flux
            HelmReleases, Kustomize images:, Dockerfiles, .env files; a folder
            is read whole): in a published snapshot. Each update counts as its
            worst class: its verdict, or the worst release it crosses when that
            is worse (the table names the release and its deciding words). An
            image the catalog does not know, or a version it cannot place, is
            unknown: never counted as safe.
            Exit 1 when one reaches --fail-on (default breaking; caution: caution
            or breaking; unknown: anything not known to be safe; never: always 0),
            --allow-urgent counting a breaking path of urgent fixes only as
            caution; 0 otherwise; 2 for bad input (a file, the snapshot, the flags).
            An update that changes the major version and that the catalog
            cannot judge counts as breaking; --allow-unjudged-major counts it
            as unknown.
            --resolve-images (off by default: it uses the network) asks the registry
            of each image the catalog does not map for its
            org.opencontainers.image.source label, with an anonymous pull token,
            and checks the app whose GitHub repository it names.
            Examples:
              updatesafe check --api https://OWNER.github.io/REPO --compose compose.yml
              updatesafe check --api ./site --from miniflux=2.2.10 --fail-on caution
              updatesafe check --api https://OWNER.github.io/REPO --compose compose.yml --json
              updatesafe check --api https://OWNER.github.io/REPO --manifest kubernetes/apps
`
}

const USAGE = `updatesafe <command> [options]   (updatesafe <command> --help, updatesafe --version)

Commands:
${Object.values(HELP).join('')}`

/** Lines for a terminal: control characters (an ESC in a file name, say) are shown escaped, never sent. */
export function stderrLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  const where = (ref?: { file?: string; line?: number }) =>
    ref?.file ? `${ref.file}${ref.line ? `:${ref.line}` : ''}: ` : ''
  const write = (line: string) => stream.write(`${noCommands(escapeUnsafe(line))}\n`)
  return {
    info: (m) => write(m),
    warning: (m, ref) => write(`warning: ${where(ref)}${m}`),
    error: (m, ref) => write(`error: ${where(ref)}${m}`)
  }
}

/** A misused command line: exit status 2 and the usage text. */
const usageError = (message: string) => problem('usage', message)

function parseNow(value: string | undefined): Date {
  if (value === undefined) return new Date()
  const d = new Date(value)
  if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(value) || Number.isNaN(d.getTime()))
    throw usageError(`--now "${value}" is not an ISO 8601 date or time`)
  return d
}

async function* lines(file: string): AsyncIterable<string> {
  const rl = createInterface({ input: file === '-' ? process.stdin : createReadStream(file), crlfDelay: Infinity })
  for await (const line of rl) yield line
}

/** `--from app=version`: the app's slug and the version it runs. */
function parseFrom(arg: string): FromArg {
  const eq = arg.indexOf('=')
  const slug = arg.slice(0, eq).trim()
  const version = arg.slice(eq + 1).trim()
  if (eq < 0 || !SLUG_PATTERN.test(slug) || !isVersionLabel(version)) {
    // Say which half is wrong: "Miniflux=2.2.10" is in the form, with a name where the slug goes.
    const why =
      eq < 0
        ? 'is not APP=VERSION'
        : !SLUG_PATTERN.test(slug)
          ? `names no app slug before "=" (slugs are lower case: a-z, 0-9 and hyphens${slug.toLowerCase() !== slug && SLUG_PATTERN.test(slug.toLowerCase()) ? `; did you mean ${slug.toLowerCase()}?` : ''})`
          : 'names no version after "="'
    throw usageError(`--from "${arg}" ${why} (APP=VERSION, e.g. --from miniflux=2.2.10)`)
  }
  return { slug, version }
}

const COMMANDS = ['build', 'serve', 'classify', 'validate', 'check', 'add']

/**
 * The command's flags; whatever parseArgs refuses (an unknown or malformed flag) is a usage error, naming the flag
 * an unknown one most likely misspells.
 */
function flags<T extends ParseArgsConfig['options']>(args: string[], config: { options: T }, positionals = false) {
  try {
    return parseArgs({ args, options: config.options, strict: true, allowPositionals: positionals })
  } catch (e) {
    const err = e as Error & { code?: string }
    const typed = err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(--?[^'\s]+)'/.exec(err.message)?.[1] : undefined
    const near = typed && didYouMean(typed.replace(/^-+/, ''), Object.keys(config.options ?? {}))
    throw usageError(near ? `unknown option ${typed}: did you mean --${near}?` : err.message)
  }
}

/** `updatesafe biuld`: the command it most likely misspells, when one is close. */
function unknownCommand(command: string): string {
  const near = didYouMean(command, COMMANDS)
  return `unknown command "${command}"${near ? `: did you mean "${near}"?` : ''}`
}

/** The usage text for a misused command line: that command's own when it names one, else every command's. */
function usageFor(command: string | undefined): string {
  return command && COMMANDS.includes(command) ? `updatesafe ${command} [options]\n\n${HELP[command]}` : USAGE
}

async function run(
  argv: string[],
  log: Logger,
  env: NodeJS.ProcessEnv,
  stdout: (text: string) => void
): Promise<number> {
  const [command, ...rest] = argv
  if (COMMANDS.includes(command ?? '') && rest.some((a) => a === '--help' || a === '-h')) {
    stdout(`updatesafe ${command} [options]\n\n${HELP[command!]}`)
    return 0
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    stdout(`${VERSION}\n`)
    return 0
  }
  switch (command) {
    case 'build': {
      const { values } = flags(rest, {
        options: {
          catalog: { type: 'string', default: 'catalog' },
          out: { type: 'string' },
          'base-url': { type: 'string' },
          refresh: { type: 'boolean', default: false },
          'notes-from': { type: 'string', multiple: true },
          previous: { type: 'string' },
          now: { type: 'string' },
          'source-commit': { type: 'string' },
          'request-timeout': { type: 'string' },
          'refresh-deadline': { type: 'string' },
          judge: { type: 'string' },
          // Repeatable: each adds to the ordered list (as commas do), so a second one never replaces the first.
          model: { type: 'string', multiple: true },
          'models-endpoint': { type: 'string' },
          'max-model-calls': { type: 'string' },
          only: { type: 'string', multiple: true },
          demo: { type: 'boolean', default: false }
        }
      })
      if (values.demo && values.refresh)
        throw usageError('--demo is for made-up apps: it reads no upstream (not with --refresh)')
      for (const slug of values.only ?? [])
        if (!SLUG_PATTERN.test(slug))
          throw usageError(`--only "${slug}" is not a slug (a record's file name, less .yml)`)
      const outDir = values.out
      if (!outDir) throw usageError('build needs --out DIR')
      if (values.refresh && values['notes-from']?.length)
        throw usageError('choose one source of release notes: --refresh or --notes-from FILE')
      const now = parseNow(values.now)
      const result = await build(
        {
          catalogDir: values.catalog,
          outDir,
          baseUrl: await resolveBaseUrl(values['base-url'], values.previous, env, log),
          now,
          refresh: values.refresh,
          sourceCommit: sourceCommit(env, values['source-commit']),
          ...(values['notes-from'] ? { notesFrom: values['notes-from'] } : {}),
          ...(values.previous ? { previousDir: values.previous } : {}),
          ...(values.demo ? { demo: true } : {}),
          ...(values.only ? { only: values.only } : {})
        },
        buildDeps(
          upstreamSettings(env, {
            ...(values['request-timeout'] ? { requestTimeout: values['request-timeout'] } : {}),
            ...(values['refresh-deadline'] ? { refreshDeadline: values['refresh-deadline'] } : {}),
            ...(values.judge !== undefined ? { judge: values.judge } : {}),
            ...(values.model !== undefined ? { model: values.model.join(',') } : {}),
            ...(values['models-endpoint'] !== undefined ? { modelsEndpoint: values['models-endpoint'] } : {}),
            ...(values['max-model-calls'] !== undefined ? { maxModelCalls: values['max-model-calls'] } : {})
          }),
          log,
          now
        )
      )
      if (result.stats)
        log.info(
          `GitHub: ${result.stats.requests} requests, ${result.stats.graphqlPoints} GraphQL points, ${result.stats.remaining ?? '?'} remaining`
        )
      const shown = result.changed.slice(0, 20).join(', ')
      // Without --previous there is nothing to compare with: every app is new, as on a first publication.
      if (!values.previous) log.info(`changed: all ${result.count} apps (no --previous snapshot to compare with)`)
      else
        log.info(
          `changed: ${result.changed.length === 0 ? 'none' : result.changed.length > 20 ? `${shown} and ${result.changed.length - 20} more` : shown}`
        )
      return 0
    }
    case 'serve': {
      const { values } = flags(rest, {
        options: {
          dir: { type: 'string', default: 'site' },
          port: { type: 'string' },
          host: { type: 'string' }
        }
      })
      // --port wins over PORT (the variable hosting platforms and `npm start` users set), then 8080.
      const [portFrom, portText] =
        values.port !== undefined ? ['--port', values.port] : env.PORT ? ['PORT', env.PORT] : ['--port', '8080']
      const port = Number(portText)
      if (!/^\d+$/.test(portText) || port > 65535) throw usageError(`${portFrom} "${portText}" is not a port number`)
      const host = values.host ?? '127.0.0.1'
      const { url } = await serveSite({ dir: values.dir, port, host }).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EADDRINUSE' && e.code !== 'EACCES') throw e
        const why = e.code === 'EADDRINUSE' ? 'is taken by another program' : 'may not be opened by this user'
        throw problem('input', `port ${port} on ${host} ${why}; choose another with --port PORT (or PORT=...)`)
      })
      log.info(`serving ${values.dir} at ${url} (Ctrl+C to stop)`)
      await new Promise(() => {}) // until interrupted
      return 0
    }
    case 'classify': {
      const { values } = flags(rest, {
        options: { jsonl: { type: 'string' }, 'notes-file': { type: 'string' } }
      })
      const write = (line: string) => process.stdout.write(`${line}\n`)
      const notesFile = values['notes-file']
      if (notesFile) {
        const read = readRegularText(notesFile, NOTES_FILE_MAX_BYTES, { followLinks: true })
        if ('problem' in read) throw problem('input', `--notes-file ${read.problem}`, { file: notesFile })
        const notes = read.text
        async function* one() {
          yield JSON.stringify({ id: notesFile, notes })
        }
        await classifyJsonl(one(), write)
        return 0
      }
      if (!values.jsonl) throw usageError('classify needs --jsonl FILE (or - for stdin) or --notes-file FILE')
      if (values.jsonl !== '-') {
        // Said here, by name, rather than as the stream's raw error once reading has begun.
        const why = unopenableFile(values.jsonl)
        if (why) throw problem('input', `--jsonl ${why}`, { file: values.jsonl })
      }
      await classifyJsonl(lines(values.jsonl), write)
      return 0
    }
    case 'validate': {
      const { values } = flags(rest, {
        options: { catalog: { type: 'string', default: 'catalog' } }
      })
      const entries = await loadCatalog(values.catalog, log)
      for (const w of futureDays(entries, utcDay(new Date())))
        log.warning(`${w.field}: ${w.message}`, { file: w.file, line: w.line })
      // Valid, but a build with nothing to read it from publishes it as unknown: say so now, not then.
      const factless = entries.filter((e) => !e.entry.release)
      for (const e of factless)
        log.warning(
          `${e.slug} has no release facts: a build publishes it as unknown (not read yet) until build --refresh (with GITHUB_TOKEN) or --notes-from reads its releases; or add a release: {version, url, checked} block`,
          { file: e.file, line: 1 }
        )
      log.info(
        `${values.catalog}: ${entries.length} record${entries.length === 1 ? '' : 's'}, all valid` +
          (factless.length ? `; ${factless.length} with no release facts yet` : '')
      )
      return 0
    }
    case 'add': {
      const { values, positionals } = flags(
        rest,
        {
          options: {
            catalog: { type: 'string', default: 'catalog' },
            slug: { type: 'string' },
            image: { type: 'string', multiple: true },
            now: { type: 'string' }
          }
        },
        true
      )
      if (positionals.length !== 1) throw usageError('add needs one OWNER/REPO (e.g. updatesafe add traefik/traefik)')
      const now = parseNow(values.now)
      const settings = upstreamSettings(env)
      const readRepo = settings.token
        ? async (repo: string) => {
            // Loaded only here: the GitHub client is the CLI's heaviest part.
            const { createGitHubClient } = await import('./upstream/github/client.js')
            const { snapshotFromRest } = await import('./upstream/github/rest.js')
            const client = createGitHubClient({
              token: settings.token!,
              apiUrl: settings.apiUrl,
              log,
              retry: { retries: 1 }
            })
            return snapshotFromRest(client, { repo })
          }
        : undefined
      const added = await addRecord(
        {
          repo: positionals[0]!,
          catalogDir: values.catalog,
          now,
          ...(values.slug ? { slug: values.slug } : {}),
          ...(values.image ? { images: values.image } : {})
        },
        readRepo
      )
      const r = added.entry.release
      log.info(
        `wrote ${added.file}: ${added.entry.repo}` +
          (r ? `, latest release ${r.version}${r.date ? ` of ${r.date}` : ''}` : '') +
          (added.entry.archived ? ', archived' : '') +
          (added.from === 'github' ? ' (from the GitHub API)' : '')
      )
      if (!r)
        log.warning(
          `${added.from === 'github' ? `GitHub gives no release (${added.noRelease ?? 'none'})` : 'no GITHUB_TOKEN: no release facts'}; ` +
            `preview it with GITHUB_TOKEN=... updatesafe build --refresh --only ${path.basename(added.file, '.yml')} --out preview`,
          { file: added.file }
        )
      if (!added.entry.images)
        log.info('images: none given; add them (--image NAME) so `check --compose` finds the app')
      return 0
    }
    case 'check': {
      const { values } = flags(rest, {
        options: {
          api: { type: 'string' },
          from: { type: 'string', multiple: true },
          compose: { type: 'string', multiple: true },
          manifest: { type: 'string', multiple: true },
          json: { type: 'boolean', default: false },
          'fail-on': { type: 'string', default: 'breaking' },
          'allow-urgent': { type: 'boolean', default: false },
          'allow-unjudged-major': { type: 'boolean', default: false },
          'resolve-images': { type: 'boolean', default: false }
        }
      })
      let failOn: FailOn
      try {
        failOn = parseFailOn(values['fail-on'])
      } catch (e) {
        throw usageError((e as Error).message)
      }
      if (!values.api) throw usageError('check needs --api URL|DIR (the address or folder of a published snapshot)')
      const from = (values.from ?? []).map(parseFrom)
      if (from.length === 0 && (values.compose ?? []).length === 0 && (values.manifest ?? []).length === 0)
        throw usageError('check needs --from APP=VERSION, --compose FILE or --manifest PATH')
      const services = []
      // A Compose file that is not a regular file (a FIFO, /dev/zero) is refused before it is read.
      for (const file of values.compose ?? []) services.push(...readComposeFile(file, { env }))
      const resolve = cachedResolve((ref) => imageSourceLabel(ref))
      const result = await runCheck(snapshotReader(values.api), {
        from,
        services,
        refs: readManifests(values.manifest ?? []),
        ...(values['resolve-images'] ? { resolve } : {})
      })
      const gate = { failOn, allowUrgent: values['allow-urgent'], allowUnjudgedMajor: values['allow-unjudged-major'] }
      stdout(
        values.json
          ? `${JSON.stringify(checkJson(result, gate), null, 2)}\n`
          : checkTable(result, { ...gate, columns: process.stdout.columns || 120 })
      )
      return gateStatus(result, gate)
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      stdout(USAGE)
      return command === undefined ? 2 : 0
    default:
      throw usageError(unknownCommand(command))
  }
}

/**
 * Runs one command; every error that stops it is reported here and mapped to the exit status here.
 * Every line goes out redacted: upstream error texts can echo the token (src/util/redact.ts).
 */
export async function main(
  argv: string[],
  output: Logger = stderrLogger(),
  env: NodeJS.ProcessEnv = process.env,
  /** Where a command's data goes (check's table or JSON); tests collect it. */
  stdout: (text: string) => void = (text) => void process.stdout.write(text)
): Promise<number> {
  const log = redactingLogger(output, [env.GITHUB_TOKEN])
  try {
    return await run(argv, log, env, (text) => stdout(noCommands(text)))
  } catch (e) {
    if (!(e instanceof ProblemsError)) {
      log.error((e as Error).message)
      return exitStatus(e)
    }
    if (e.kind === 'usage') {
      log.error(`${e.message}\n\n${usageFor(argv[0])}`)
      return exitStatus(e)
    }
    for (const p of e.problems) log.error(formatProblem(p))
    if (e.kind !== 'input' && e.kind !== 'output' && e.kind !== 'bad-input')
      log.error(argv[0] === 'build' ? closingLine(e, 'nothing was written') : e.summary)
    return exitStatus(e)
  }
}
