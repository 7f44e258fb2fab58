// Child: the edit baseline, a bare Node script: read the file, replace one string, write it
// back atomically (temp file + fsync + rename + directory fsync). Same args and report as
// children/edit.mjs.
import { readFile } from 'node:fs/promises'
import { writeAtomically } from '../lib/atomic.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { file, oldString, newString } = childArgs()

async function replaceOnce() {
  const text = await readFile(file, 'utf8')
  const at = text.indexOf(oldString)
  if (at === -1 || text.indexOf(oldString, at + 1) !== -1) throw new Error('not unique')
  await writeAtomically(file, text.slice(0, at) + newString + text.slice(at + oldString.length))
}

const result = await measure(replaceOnce)
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
