// How read_image words a path and a size on its card and in its messages. Pure.
import { isAbsolute, relative } from 'node:path'
import type { ToolPresentationView } from '@deepseek-ai/dsh-tools'

/** The path relative to the session's workspace when inside it, else as given. */
export function titlePath(filePath: string, view?: ToolPresentationView): string {
  const cwd = view?.cwd
  if (cwd === undefined || !isAbsolute(filePath) || !isAbsolute(cwd)) return filePath
  const inside = relative(cwd, filePath)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return filePath
  return inside
}

/** `812 bytes`, `12.3 KiB`, `4.0 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
