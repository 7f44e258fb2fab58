// The small files the call-count benchmarks read (`files` files of 40 short lines, read in
// turn) and the scripted session that reads them.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The file the `i`-th call reads. */
export function fileName(i, files) {
  return `small-${i % files}.txt`
}

function smallText(i) {
  return Array.from({ length: 40 }, (_, line) => `file ${i} line ${line + 1}: some text`).join('\n')
}

/** Writes the `files` small files into `dir`. */
export function seedSmallFiles(dir, files) {
  for (let i = 0; i < files; i++) writeFileSync(join(dir, fileName(i, files)), `${smallText(i)}\n`)
}

/** Reads per prompt: the agent's step limit (50) holds a prompt's reads and its closing text. */
const READS_PER_PROMPT = 40

export const PROMPTS_TEXT = 'read the next files'

/**
 * Reads before the timed ones, on every side alike: the timed calls then measure the steady
 * state of a session, not the first minutes of a process (code not yet compiled).
 */
export const WARMUP_CALLS = 5 * READS_PER_PROMPT

/** The prompts a session of `calls` reads takes. */
export function promptsFor(calls) {
  return Math.ceil(calls / READS_PER_PROMPT)
}

/**
 * The scripted model of such a session: `calls` turns that each call `read` once, in prompts
 * of READS_PER_PROMPT reads that each end with a text turn.
 */
export function readingScript(calls, files) {
  const turns = []
  for (let i = 0; i < calls; i++) {
    const read = { id: `read-${i}`, name: 'read', arguments: { file_path: fileName(i, files) } }
    turns.push({ toolCalls: [read] })
    if ((i + 1) % READS_PER_PROMPT === 0 || i === calls - 1) turns.push({ text: 'Read.' })
  }
  return { turns }
}
