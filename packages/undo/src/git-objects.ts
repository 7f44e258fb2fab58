// Git objects the undo store writes itself, without a git process: a file's blob (the bytes a
// snapshot keeps) and a flat tree that holds a turn's blobs so a ref keeps them from a prune.
// A loose object is `<type> <size>\0<body>`, zlib-deflated, at `objects/<2 hex>/<38 hex>` of its
// SHA-1 — the format every git reads; the stores are made by `git init` with no user config,
// so they use SHA-1. Written to a temporary name and renamed, as git does, so a reader never
// sees half an object. Cordis-free; only node:fs, node:zlib and node:crypto.
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** zlib, loaded at the first object written (not at start): `deflate` as a promise. */
let deflating: Promise<(body: Buffer) => Promise<Buffer>> | undefined
function deflated(body: Buffer): Promise<Buffer> {
  deflating ??= import('node:zlib').then(({ deflate }) => promisify(deflate))
  return deflating.then((deflate) => deflate(body))
}

/** Stores `body` as a loose object of `type` in `gitDir` (when it is not there yet); its id. */
export async function writeObject(
  gitDir: string,
  type: 'blob' | 'tree',
  body: Buffer,
): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`)
  const oid = createHash('sha1').update(header).update(body).digest('hex')
  const dir = join(gitDir, 'objects', oid.slice(0, 2))
  const path = join(dir, oid.slice(2))
  // One already there is freshened, as git does: a collection spares what is younger than an
  // hour, and this one is about to be held again.
  const now = new Date()
  const there = await utimes(path, now, now).then(
    () => true,
    () => false,
  )
  if (there) return oid
  await mkdir(dir, { recursive: true })
  // git's own prefix for a temporary object: `git prune` removes one a crash left behind.
  const temp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`)
  try {
    await writeFile(temp, await deflated(Buffer.concat([header, body])), { mode: 0o444 })
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return oid
}

/** A tree of `oids` (blobs), each entry named by its id: what a ref holds to keep them. */
export function writeHolderTree(gitDir: string, oids: Iterable<string>): Promise<string> {
  const entries = [...new Set(oids)]
    .sort()
    .map((oid) => Buffer.concat([Buffer.from(`100644 ${oid}\0`), Buffer.from(oid, 'hex')]))
  return writeObject(gitDir, 'tree', Buffer.concat(entries))
}
