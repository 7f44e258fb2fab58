// Small numeric helpers for the benchmarks: medians and human-readable figures.
// No statistics beyond the median: runs are few and the ratio is read side by side.

export function median(values) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function max(values) {
  return values.length === 0 ? NaN : Math.max(...values)
}

export function ms(value) {
  if (!Number.isFinite(value)) return 'n/a'
  if (value < 1) return `${(value * 1000).toFixed(0)} µs`
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`
}

export function mib(bytes) {
  if (!Number.isFinite(bytes)) return 'n/a'
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`
}

export function ratio(ours, baseline) {
  const value = ours / baseline
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a'
}

/** A fixed-width text table: `rows` are arrays of strings, the first is the header. */
export function table(rows) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col]).length)))
  const line = (row) => row.map((cell, col) => String(cell).padEnd(widths[col])).join('  ')
  return [
    line(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n')
}
