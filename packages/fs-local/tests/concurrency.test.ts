import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
beforeEach(async () => {
  local = await setupLocal()
})
afterEach(() => local.cleanup())

describe('guarded edits of one file', () => {
  it('lets exactly one of fifty edits at one version win and refuses the rest as stale', async () => {
    await writeFile(join(local.root, 'config.txt'), 'mode = old\nother = kept\n')
    const target = await local.fs.resolve('config.txt')
    const { version } = (await local.fs.stat(target))!
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        local.fs.editText(
          target,
          { oldString: 'mode = old', newString: `mode = ${index}` },
          { version },
        ),
      ),
    )
    const winners = settled.flatMap((result, index) =>
      result.status === 'fulfilled' ? [index] : [],
    )
    expect(winners).toHaveLength(1)
    const codes = await Promise.all(
      settled.flatMap((result) =>
        result.status === 'rejected' ? [failureOf(Promise.reject(result.reason))] : [],
      ),
    )
    expect(new Set(codes.map((failure) => failure.code))).toEqual(new Set(['FS_STALE_VERSION']))
    expect(await readFile(join(local.root, 'config.txt'), 'utf8')).toBe(
      `mode = ${winners[0]}\nother = kept\n`,
    )
  })

  it('lets exactly one guarded write win against guarded edits at the same version', async () => {
    await writeFile(join(local.root, 'a.txt'), 'start')
    const target = await local.fs.resolve('a.txt')
    const { version } = (await local.fs.stat(target))!
    const settled = await Promise.allSettled([
      local.fs.writeText(target, 'written', { kind: 'replaceIfVersion', version }),
      local.fs.editText(target, { oldString: 'start', newString: 'edited' }, { version }),
      local.fs.editText(target, { oldString: 'start', newString: 'edited again' }, { version }),
    ])
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected'])
    expect(await readFile(join(local.root, 'a.txt'), 'utf8')).toBe('written')
  })

  it('serialises edits of one file reached through two paths', async () => {
    await writeFile(join(local.root, 'n.txt'), '0')
    const direct = await local.fs.resolve('n.txt')
    const dotted = await local.fs.resolve('./sub/../n.txt')
    const edits = Array.from({ length: 10 }, (_, index) =>
      local.fs.editText(index % 2 ? dotted : direct, {
        oldString: `${index}`,
        newString: `${index + 1}`,
      }),
    )
    await Promise.all(edits)
    expect(await readFile(join(local.root, 'n.txt'), 'utf8')).toBe('10')
  })
})
