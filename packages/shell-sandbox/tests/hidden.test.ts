// Hidden paths: the agent's stored key (dsh's config folder) is neither readable nor listable
// by a confined command, whatever the mode, while the folder beside it still is; a hidden file
// reads as empty. Absent hidden paths are skipped.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { planOf } from '../src/plan'
import { describeWithSandbox } from '../src/testing'
import { sandboxStack, textOf } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack
let home: string
let config: string

beforeEach(async () => {
  // Outside /tmp, which the sandbox replaces with a private one.
  home = await mkdtemp('/var/tmp/dsh-hidden-')
  config = join(home, 'config', 'dsh')
  await mkdir(config, { recursive: true })
  await writeFile(join(config, 'credentials.json'), '{"keys":{"x":{"apiKey":"sk-secret"}}}')
  await writeFile(join(home, 'config', 'other.txt'), 'seen\n')
  stack = await sandboxStack({ shell: { hidden: [config, join(home, 'absent')] } })
})

afterEach(async () => {
  await stack.cleanup()
  await rm(home, { recursive: true, force: true })
})

it('an absent hidden path is skipped, a present one is kept with its kind', () => {
  const plan = planOf({ writable: [], network: false }, '/', {
    visible: [],
    hidden: ['/dev/null', '/nonexistent/dsh'],
  })
  expect(plan.hidden).toEqual([{ path: '/dev/null', folder: false }])
})

describeWithSandbox('a hidden folder, from inside the sandbox', () => {
  it('the stored key is neither read nor listed, in read-only and in auto-edit', async () => {
    for (const mode of ['read-only', 'auto-edit']) {
      const command = `cat ${config}/credentials.json; echo "listed: $(ls -A ${config} | wc -l)"`
      const read = textOf(await stack.call('bash', { command }, { mode }))
      expect(read).not.toContain('sk-secret')
      expect(read).toContain('listed: 0')
    }
    const beside = textOf(
      await stack.call('bash', { command: `cat ${home}/config/other.txt` }, { mode: 'auto-edit' }),
    )
    expect(beside).toContain('seen')
  })
})
