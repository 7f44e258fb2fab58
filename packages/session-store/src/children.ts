// The child sessions stored under a parent (`<parent>.children/`), read back for showing: each
// header with its events, oldest first. Read only and without their locks: a child is written
// only while its parent is live, and a reader that meets a log mid-append keeps the whole lines
// (the torn last one is left for the writer). A child whose files cannot be read is skipped and
// reported, so one damaged child never hides its parent's history.
import { readdirSync } from 'node:fs'
import type { StoredChildSession } from '@deepseek-ai/dsh-agent'
import { readHeader } from './header'
import { hasCode, storeIoError } from './io'
import { readLog } from './log'
import { childrenDir, isPlainId, sessionFiles } from './paths'

export function readChildren(
  dir: string,
  parent: string,
  warn: (message: string) => void,
): StoredChildSession[] {
  const folder = childrenDir(dir, parent)
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return []
    throw storeIoError(error, `list the child sessions in ${folder}`)
  }
  const children: StoredChildSession[] = []
  for (const name of names) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : ''
    if (!isPlainId(id)) continue
    const files = sessionFiles(folder, id)
    try {
      const header = readHeader(files.header, id)
      if (header === undefined) continue
      children.push({ header, events: readLog(files.log, id).events })
    } catch (error) {
      warn(`Child session ${id} of ${parent} was not shown: ${String(error)}`)
    }
  }
  return children.sort((a, b) => a.header.createdAt.localeCompare(b.header.createdAt))
}
