// Peak memory of `updatesafe check` against hostile snapshot servers on 127.0.0.1: an endless body
// and a gzip bomb (200 MiB of zeros, about 200 KB on the wire). Each run is a child process
// measured by /usr/bin/time -v (maximum resident set size); it must exit 2 after 64 MiB.
//   node bench/check-hostile.mjs [--cli "node --import tsx src/cli.ts"]
// The CLI default runs the sources through tsx; `--cli "node dist/cli/index.js"` measures the bundle.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { createGzip } from 'node:zlib'

const MiB = 1024 * 1024
const args = process.argv.slice(2)
const i = args.indexOf('--cli')
const cli = (i >= 0 ? args[i + 1] : 'node --import tsx src/cli.ts').split(' ')

async function gzipOfZeros(size) {
  const gz = createGzip({ level: 9 })
  const out = []
  gz.on('data', (c) => out.push(c))
  const done = new Promise((ok) => gz.on('end', ok))
  const chunk = Buffer.alloc(MiB)
  for (let n = 0; n < size; n += MiB) if (!gz.write(chunk)) await new Promise((ok) => gz.once('drain', ok))
  gz.end()
  await done
  return Buffer.concat(out)
}

const bomb = await gzipOfZeros(200 * MiB)
const sent = { endless: 0 }
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/bomb/')) {
    res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) })
    return res.end(bomb)
  }
  res.writeHead(200, { 'content-type': 'application/json' })
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  let open = true
  res.on('close', () => (open = false))
  const pump = () => {
    while (open) {
      sent.endless += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
  }
  pump()
})
await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
const origin = `http://127.0.0.1:${server.address().port}`

function run(site) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(
      '/usr/bin/time',
      ['-v', ...cli, 'check', '--api', `${origin}/${site}`, '--from', 'gogs=0.14.3'],
      { stdio: ['ignore', 'ignore', 'pipe'] }
    )
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('close', () => {
      const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN)
      const status = Number(/Exit status: (\d+)/.exec(err)?.[1] ?? NaN)
      const message = err.split('\n').find((l) => l.startsWith('error:')) ?? ''
      resolve({ site, status, rssMB: Math.round(rss / 1024), seconds: (Date.now() - started) / 1000, message })
    })
  })
}

for (const site of ['endless', 'bomb']) {
  const r = await run(site)
  const extra = site === 'endless' ? `, ${Math.round(sent.endless / MiB)} MiB sent before the client let go` : ''
  console.log(`${site}: exit ${r.status}, peak RSS ${r.rssMB} MB, ${r.seconds.toFixed(1)} s${extra}`)
  console.log(`  ${r.message}`)
}
server.closeAllConnections()
server.close()
