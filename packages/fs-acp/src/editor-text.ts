// The editor's text as the seam's file: its version (a hash of the content), its BOM (a
// leading U+FEFF, hidden from reads and kept by writes, as the disk keeps its byte-order mark),
// the text rule (a NUL is not text), and the text or its UTF-8 bytes in chunks. Pure values
// over one string, no I/O: the provider asks the editor (client.ts) and hands the answer here.
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import type { FsInfo, FsVersion } from '@deepseek-ai/dsh-fs'
import { notTextError, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'

const BOM = '\uFEFF'
/** Characters per streamText chunk. */
const TEXT_CHUNK_CHARS = 64 * 1024
/** Bytes per streamBytes chunk. */
const BYTE_CHUNK_BYTES = 64 * 1024

/**
 * The version of an editor-served file: a hash of its whole text (BOM included). Versions by
 * content: the editor has no inode or mtime for an unsaved buffer, and a buffer changed and
 * changed back is, for every caller, the same file.
 */
export function editorVersion(text: string): FsVersion {
  return `editor:${createHash('sha256').update(text, 'utf8').digest('hex')}`
}

/** The file's text without its BOM, and whether it had one. */
export function splitBom(text: string): { text: string; bom: boolean } {
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false }
}

/** `content` with the BOM in front when the file had one (never two). */
export function withBom(content: string, bom: boolean): string {
  return bom && !content.startsWith(BOM) ? BOM + content : content
}

/** The size in bytes the text has as a UTF-8 file. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** What stat says of an editor-served file whose editor text is `text`. */
export function editorInfo(text: string): FsInfo {
  return { version: editorVersion(text), type: 'file', size: utf8Length(text), source: 'editor' }
}

/**
 * The readable text (no BOM). A NUL character fails with FS_NOT_TEXT, as a NUL byte does on
 * disk. (Invalid UTF-8 on disk is the editor's to decode: it answers with characters.)
 */
export function readableText(text: string, path: string): string {
  if (text.includes('\0')) throw notTextError(path, 'nul')
  return splitBom(text).text
}

/** The readable text in chunks, never splitting a surrogate pair; stops when `signal` fires. */
export function* textChunks(text: string, path: string, signal?: AbortSignal): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + TEXT_CHUNK_CHARS, text.length)
    const last = text.charCodeAt(end - 1)
    if (last >= 0xd800 && last <= 0xdbff && end < text.length) end += 1
    throwIfAborted(signal, path)
    yield text.slice(at, end)
    at = end
  }
}

/** The file's UTF-8 bytes (its BOM included) from byte `start`, in chunks. */
export function* byteChunks(
  text: string,
  start: number,
  path: string,
  signal?: AbortSignal,
): Generator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8')
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = start; at < view.length; at += BYTE_CHUNK_BYTES) {
    throwIfAborted(signal, path)
    yield view.subarray(at, at + BYTE_CHUNK_BYTES)
  }
}
