// Deleting one stored session: its header first (from then on no listing shows it and no open
// finds it), then its log, then the temporary files its dead writers left, all while holding
// its lock, which goes last. Only the files named after that id are touched. A crash halfway
// leaves at worst a log with no header, which nothing lists or opens.
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { hasCode, storeIoError, syncDir } from './io'
import { removeDeadTemps, type SessionFiles } from './paths'

/** Removes the session's header and log; the caller holds its lock. */
export function removeSessionFiles(id: string, files: SessionFiles): void {
  for (const file of [files.header, files.log]) {
    try {
      rmSync(file)
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw storeIoError(error, `delete ${file}`)
    }
  }
  const dir = dirname(files.header)
  removeDeadTemps(dir, id)
  syncDir(dir)
}
