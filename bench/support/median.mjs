// The median the benchmarks report (the lower middle value of an even count).
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
