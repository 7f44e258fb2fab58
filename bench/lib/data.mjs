// Test data for the benchmarks: temp directories and large ASCII text files, written fast by
// repeating one pre-built block of varied-length lines (60–120 bytes each, newline included).
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const BLOCK_BYTES = 2 ** 20
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 ,.;:()[]{}=+-*/'

/** A deterministic pseudo-random generator (mulberry32), so every run writes the same data. */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** One block of whole lines, about `bytes` long; returns the buffer and its line count. */
export function buildBlock(bytes = BLOCK_BYTES, seed = 1) {
  const next = random(seed)
  const lines = []
  let size = 0
  while (size < bytes) {
    const length = 59 + Math.floor(next() * 61)
    let line = ''
    for (let i = 0; i < length; i++) line += ALPHABET[Math.floor(next() * ALPHABET.length)]
    lines.push(line)
    size += length + 1
  }
  return { buffer: Buffer.from(lines.join('\n') + '\n', 'ascii'), lines: lines.length }
}

/**
 * Writes about `bytes` of text (whole blocks, at least one) to `path`; with `marker`, one
 * extra line holding it sits in the middle (a unique string to edit). Returns the file's shape.
 */
export function writeTextFile(path, bytes, { marker } = {}) {
  const block = buildBlock(Math.min(BLOCK_BYTES, bytes))
  const repeats = Math.max(1, Math.round(bytes / block.buffer.length))
  const middle = marker === undefined ? undefined : Buffer.from(`${marker}\n`, 'ascii')
  const fd = openSync(path, 'w')
  try {
    for (let i = 0; i < repeats; i++) {
      if (middle && i === Math.floor(repeats / 2)) writeSync(fd, middle)
      writeSync(fd, block.buffer)
    }
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  const extra = middle ? { size: middle.length, lines: 1 } : { size: 0, lines: 0 }
  return {
    path,
    size: repeats * block.buffer.length + extra.size,
    lines: repeats * block.lines + extra.lines,
  }
}

/** A fresh temp directory and a function that removes it. */
export function tempDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `dsh-bench-${label}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** About `bytes` of text as one string (for write benchmarks), from one repeated block. */
export function buildText(bytes, seed = 2) {
  const block = buildBlock(Math.min(BLOCK_BYTES, bytes), seed).buffer.toString('ascii')
  return block.repeat(Math.max(1, Math.round(bytes / block.length)))
}
