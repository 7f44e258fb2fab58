// The spilled output of a cut result, attacked from inside the sandbox: a workspace command
// may write the temp folders, so before the first long output it tries to make the spill
// folder a link, or plant links where the next file would go, to have the agent (unconfined)
// write a long output over a file outside the roots. The folder is made when the tools start,
// kept read-only in every sandbox, and its files are made without following links.
import { existsSync, lstatSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeWithSandbox } from '../src/testing'
import { sandboxStack, textOf } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack
let temp: string
let outputDir: string

beforeEach(async () => {
  // Under the real /tmp, which a workspace command may write, as the app's used to be.
  temp = await mkdtemp('/tmp/dsh-spill-test-')
  outputDir = join(temp, 'dsh-shell-output')
  stack = await sandboxStack({ outputDir, shell: { visible: [outputDir] } })
})

afterEach(async () => {
  await stack.cleanup()
  await rm(temp, { recursive: true, force: true })
})

describeWithSandbox('the spilled output folder, from inside the sandbox', () => {
  it('cannot be replaced by a link or take planted links; a long output lands only in it', async () => {
    const target = join(stack.outside, 'bashrc')
    await writeFile(target, 'the person’s own\n')
    // Every name the next spill could take, in the layouts the agent ever used.
    const plant =
      `rm -rf ${outputDir}; ln -s ${stack.root} ${outputDir}; ` +
      `mkdir -p ${outputDir}/session-auto-edit; ` +
      `for i in $(seq 1 5); do ln -s ${target} ${outputDir}/session-auto-edit/call-$i.log; ` +
      `ln -s ${target} ${outputDir}/session-auto-edit-call-$i.log; done; ` +
      `ls -d ${outputDir}/*/ 2>/dev/null; echo planted`
    const planted = textOf(await stack.call('bash', { command: plant }))
    const long = textOf(await stack.call('bash', { command: 'seq 1 20000; echo attacker' }))
    expect(readFileSync(target, 'utf8')).toBe('the person’s own\n')
    expect(planted).toMatch(/Device or resource busy|Read-only file system/)
    expect(lstatSync(outputDir).isDirectory()).toBe(true)
    const file = /is in (\S+) …\]/.exec(long)?.[1]
    expect(file).toBeDefined()
    expect(lstatSync(file as string).isFile()).toBe(true)
    expect(readFileSync(file as string, 'utf8')).toContain('\n20000\nattacker\n')
    expect(existsSync(join(stack.root, 'session-auto-edit'))).toBe(false)
    expect(stack.asked).toEqual([])
  })
})
