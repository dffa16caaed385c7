// The one way every JSON file we write is serialised: two-space indent and a
// final newline, so files are readable, diff well and are byte-stable.
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
