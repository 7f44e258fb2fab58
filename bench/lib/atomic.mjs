// The baselines' atomic write, as a careful bare Node script does it: write a temp file,
// fsync it, rename it over the target, fsync the directory.
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'

export async function writeAtomically(file, text) {
  const temp = `${file}.tmp-${process.pid}`
  const handle = await open(temp, 'w')
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, file)
  const dir = await open(dirname(file), 'r')
  try {
    await dir.sync()
  } finally {
    await dir.close()
  }
}
