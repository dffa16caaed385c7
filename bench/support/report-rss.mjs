// Preloaded into a measured process: prints its peak resident set size and the CPU
// time it used (user + system, in microseconds) at exit.
process.on('exit', () => {
  const u = process.resourceUsage()
  process.stderr.write(`BENCH_MAXRSS_KB=${u.maxRSS}\nBENCH_CPU_US=${u.userCPUTime + u.systemCPUTime}\n`)
})
