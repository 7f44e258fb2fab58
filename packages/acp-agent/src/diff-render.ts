// A small unified-style line diff for showing an edit to a person: `-` for removed lines,
// `+` for added ones, a few unchanged lines of context around each change, `@@` between hunks.
// Pure and dependency-free. It is not a patch format (no line numbers in hunk headers) and
// favours readability over a minimal edit script on very large inputs.

export type DiffLine = { op: ' ' | '-' | '+'; text: string }

/** Above this many cells the LCS table is skipped and the changed middle shown whole. */
const MAX_LCS_CELLS = 4_000_000

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop() // a trailing newline ends the last line, adds none
  return lines
}

/** Every line of both texts, marked unchanged, removed or added, in reading order. */
export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  const a = splitLines(oldText ?? '')
  const b = splitLines(newText)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1
    endB -= 1
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ op: ' ', text }))
  const tail = a.slice(endA).map((text): DiffLine => ({ op: ' ', text }))
  return [...head, ...diffMiddle(a.slice(start, endA), b.slice(start, endB)), ...tail]
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [
      ...a.map((text): DiffLine => ({ op: '-', text })),
      ...b.map((text): DiffLine => ({ op: '+', text })),
    ]
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
  }
  const out: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! })
      i += 1
      j += 1
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      out.push({ op: '+', text: b[j]! })
      j += 1
    } else {
      out.push({ op: '-', text: a[i]! })
      i += 1
    }
  }
  // Show removals before additions within each changed run, as unified diffs do.
  return groupRuns(out)
}

function groupRuns(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = []
  let removed: DiffLine[] = []
  let added: DiffLine[] = []
  const flush = (): void => {
    out.push(...removed, ...added)
    removed = []
    added = []
  }
  for (const line of lines) {
    if (line.op === '-') removed.push(line)
    else if (line.op === '+') added.push(line)
    else {
      flush()
      out.push(line)
    }
  }
  flush()
  return out
}

/** The changed lines with `context` unchanged lines around them; `@@` separates hunks. */
export function renderDiff(
  oldText: string | null | undefined,
  newText: string,
  context = 3,
): string[] {
  const lines = diffLines(oldText, newText)
  const keep = new Array<boolean>(lines.length).fill(false)
  lines.forEach((line, index) => {
    if (line.op === ' ') return
    const from = Math.max(0, index - context)
    const to = Math.min(lines.length - 1, index + context)
    for (let k = from; k <= to; k += 1) keep[k] = true
  })
  const out: string[] = []
  let gap = false
  lines.forEach((line, index) => {
    if (!keep[index]) {
      gap = out.length > 0
      return
    }
    if (gap) out.push('@@')
    gap = false
    out.push(`${line.op} ${line.text}`.trimEnd())
  })
  return out
}
