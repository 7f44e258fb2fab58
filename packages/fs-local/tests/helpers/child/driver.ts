// A child process that drives the real LocalFileSystem, bundled by tests/child/bundle.ts and
// run with `node`. Modes:
//   loop <file> <megabytes>  write two distinct contents alternately, forever (crash test);
//                            prints "written" after the first write completes.
//   op <json>                run one operation, print its outcome as one JSON line.
//   hold <directory> <name>  take the lock of <name> in <directory> as a write does, print
//                            "held", and keep it until killed.
import { Context } from 'cordis'
import { OpenDirectory } from '../../../src/directory'
import LocalFileSystem from '../../../src/index'
import { takeLock } from '../../../src/lock'

export interface ChildOp {
  cwd: string
  action: 'readText' | 'writeText' | 'editText' | 'stat'
  path: string
  content?: string
  oldString?: string
  newString?: string
}

export function crashContent(which: 0 | 1, megabytes: number): string {
  const line = `${which === 0 ? 'first' : 'second'} content, line of a multi-megabyte file\n`
  return line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length))
}

async function load(cwd: string): Promise<LocalFileSystem> {
  const ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd })
  return ctx.fs as LocalFileSystem
}

async function loop(file: string, megabytes: number): Promise<void> {
  const fs = await load(process.cwd())
  const target = await fs.resolve(file)
  const contents = [crashContent(0, megabytes), crashContent(1, megabytes)]
  for (let round = 0; ; round++) {
    await fs.writeText(target, contents[round % 2]!)
    if (round === 0) process.stdout.write('written\n')
  }
}

async function runOp(op: ChildOp): Promise<unknown> {
  const fs = await load(op.cwd)
  const target = await fs.resolve(op.path)
  switch (op.action) {
    case 'readText':
      return { text: await fs.readText(target) }
    case 'stat':
      return { info: (await fs.stat(target)) ?? null }
    case 'writeText':
      return await fs.writeText(target, op.content ?? '')
    case 'editText':
      return await fs.editText(target, {
        oldString: op.oldString ?? '',
        newString: op.newString ?? '',
      })
  }
}

async function hold(directory: string, name: string): Promise<void> {
  const opened = await OpenDirectory.open(directory, name)
  await takeLock(opened, name, name)
  process.stdout.write('held\n')
  setInterval(() => undefined, 60_000)
}

async function main(): Promise<void> {
  const [mode, first, second] = process.argv.slice(2)
  if (mode === 'loop') return loop(first!, Number(second))
  if (mode === 'hold') return hold(first!, second!)
  try {
    const result = await runOp(JSON.parse(first!) as ChildOp)
    process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`)
  } catch (error) {
    const { name, code, message } = error as { name?: string; code?: string; message?: string }
    process.stdout.write(`${JSON.stringify({ ok: false, name, code, message })}\n`)
  }
}

if (process.argv[1]?.endsWith('driver.mjs')) void main()
