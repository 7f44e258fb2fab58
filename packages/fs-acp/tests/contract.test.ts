import { mkdir } from 'node:fs/promises'
import { runFileSystemContract } from '@deepseek-ai/dsh-fs/testing'
import { MemoryEditor } from './helpers/editor'
import { setupAcp } from './helpers/setup'

// Every target goes to one editor (the contract passes no session): small text files are read
// from its buffers and written through it; the rest are the disk's.
runFileSystemContract('AcpFileSystem', async () => {
  const editor = new MemoryEditor()
  const { fs, root, path, put, bytes, cleanup } = await setupAcp({ clientOf: () => editor })
  return {
    fs,
    root,
    path,
    writeBytes: put,
    readBytes: bytes,
    makeDirectory: async (relative) => {
      await mkdir(path(relative), { recursive: true })
    },
    cleanup,
  }
})
