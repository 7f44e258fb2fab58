// Child: the bytes of a file read to the end as the disk provider reads them (async reads of
// up to 4 MiB into two buffers in turn, the next read under way while the last is looked at),
// and nothing else done with them: the floor under any scan of the file from Node.
// Args: { file }. Reports ms and the bytes read.
import { open } from 'node:fs/promises'
import { childArgs, measure, report } from '../lib/measure.mjs'

const CHUNK_BYTES = 4 * 2 ** 20
const { file } = childArgs()

const result = await measure(async () => {
  const handle = await open(file, 'r')
  try {
    let [filling, spare] = [new Uint8Array(CHUNK_BYTES), new Uint8Array(CHUNK_BYTES)]
    let position = 0
    let next = handle.read(filling, 0, CHUNK_BYTES, position)
    for (;;) {
      const { bytesRead } = await next
      if (bytesRead === 0) return position
      position += bytesRead
      ;[filling, spare] = [spare, filling]
      next = handle.read(filling, 0, CHUNK_BYTES, position)
    }
  } finally {
    await handle.close()
  }
})
report({ ms: result.ms, bytes: result.value })
