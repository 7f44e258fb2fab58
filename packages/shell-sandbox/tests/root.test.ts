// A command run by root in the sandbox: root's capabilities are dropped, so it cannot remount
// the read-only filesystem writable and then write outside the roots, set the host's name, or
// write /proc/sys (root may write most of it by file mode alone). Needs root: most containers,
// devcontainers and CI images run as it. Real bwrap, through the tools in `auto-edit`.
import { existsSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeWithSandbox, mustNotSkip } from '../src/testing'
import { sandboxStack, textOf } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

const isRoot = process.getuid?.() === 0
const asRoot = isRoot || mustNotSkip()
if (!asRoot) process.stderr.write('Skipping the root sandbox tests: they need to run as root.\n')

let stack: SandboxStack

beforeEach(async () => {
  stack = await sandboxStack()
})

afterEach(async () => {
  await stack.cleanup()
})

async function autoEdit(command: string): Promise<string> {
  return textOf(await stack.call('bash', { command }, { mode: 'auto-edit' }))
}

describeWithSandbox('root in the sandbox', () => {
  it.runIf(asRoot)('runs as root here (CI proves the root case)', () => {
    expect(isRoot).toBe(true)
  })

  it.runIf(asRoot)('has no capability left', async () => {
    const text = await autoEdit('grep -E "^Cap(Prm|Eff|Amb):" /proc/self/status')
    expect(text.match(/Cap(Prm|Eff|Amb):\s+0{16}/g)).toHaveLength(3)
  })

  it.runIf(asRoot)(
    'cannot remount / writable, so a write outside the roots still fails',
    async () => {
      const target = join(stack.outside, 'after-remount')
      const text = await autoEdit(
        `mount -o remount,bind,rw /; mount -o remount,bind,rw ${stack.outside}; echo x > ${target}`,
      )
      expect(text).toMatch(/permission denied/i)
      expect(text).toContain('Read-only file system')
      expect(existsSync(target)).toBe(false)
      expect(stack.asked).toEqual([])
    },
  )

  it.runIf(asRoot)('cannot set a host name, and the host’s stays as it was', async () => {
    const before = hostname()
    // The same name written back: harmless even where the sandbox would let it through.
    const text = await autoEdit('hostname "$(hostname)" && echo set-name')
    expect(text).not.toContain('set-name')
    expect(hostname()).toBe(before)
  })

  it.runIf(asRoot)('cannot write /proc/sys', async () => {
    const before = readFileSync('/proc/sys/kernel/hostname', 'utf8')
    const text = await autoEdit(
      'cat /proc/sys/kernel/hostname > /proc/sys/kernel/hostname && echo wrote-sys',
    )
    expect(text).not.toContain('wrote-sys')
    expect(text).toContain('Read-only file system')
    expect(readFileSync('/proc/sys/kernel/hostname', 'utf8')).toBe(before)
  })
})
