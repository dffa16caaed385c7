// Preloaded into a measured process: prints its peak resident set size at exit.
process.on('exit', () => {
  process.stderr.write(`BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`)
})
