import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { runFileSystemContract } from '@deepseek-ai/dsh-fs/testing'
import { setupLocal } from './helpers/local'

runFileSystemContract('LocalFileSystem', async () => {
  const { fs, root, cleanup } = await setupLocal()
  const path = (relative: string) => join(root, relative)
  let seq = 0
  return {
    fs,
    root,
    path,
    // Behind the provider's back, the way editors save: a new file renamed into place.
    writeBytes: async (relative, bytes) => {
      await mkdir(dirname(path(relative)), { recursive: true })
      const temp = path(`.fixture-${seq++}`)
      await writeFile(temp, bytes)
      await rename(temp, path(relative))
    },
    readBytes: async (relative) => {
      try {
        return new Uint8Array(await readFile(path(relative)))
      } catch {
        return undefined
      }
    },
    makeDirectory: async (relative) => {
      await mkdir(path(relative), { recursive: true })
    },
    cleanup,
  }
})
