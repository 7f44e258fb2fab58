// The compiler's view through the whole stack: a session edits a TypeScript file of a project
// with its own typescript, and the model's next request carries the error the edit made, with
// its line; the edit's card says it in a word and lists it. A real typescript-language-server
// (the app's dependency) over this repository's typescript; no network.
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { updatesOfKind, useAcpHarness } from './helpers/harness'
import { watchModel } from './helpers/watched-model'

const makeHarness = useAcpHarness()
const TYPESCRIPT = dirname(createRequire(import.meta.url).resolve('typescript/package.json'))

async function seed(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'src'))
  await writeFile(join(workspace, 'package.json'), '{ "name": "p", "private": true }\n')
  await writeFile(join(workspace, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n')
  await writeFile(join(workspace, 'src', 'count.ts'), 'export const count: number = 1\n')
  await mkdir(join(workspace, 'node_modules'))
  await symlink(TYPESCRIPT, join(workspace, 'node_modules', 'typescript'))
}

const script = {
  turns: [
    { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'src/count.ts' } }] },
    {
      toolCalls: [
        {
          id: 'e1',
          name: 'edit',
          arguments: { file_path: 'src/count.ts', old_string: '= 1', new_string: "= 'one'" },
        },
      ],
    },
    { text: 'Done.' },
  ],
}

describe('diagnostics after an edit', () => {
  it(
    "puts the edit's new error, with its line, in the model's next request and on the card",
    { timeout: 120_000 },
    async () => {
      const harness = await makeHarness({
        withFs: true,
        mode: 'full-access',
        script,
        diagnostics: { sandbox: 'off', startMs: 90_000 },
      })
      await seed(harness.workspace)
      const model = watchModel(harness.ctx)
      const sessionId = await harness.newSession()
      expect(await harness.prompt(sessionId, 'make count a word')).toEqual({
        stopReason: 'end_turn',
      })
      const last = model.requests[2]?.messages.at(-1)
      expect(JSON.stringify(last)).toContain(
        "src/count.ts:1:14 error TS2322: Type 'string' is not assignable to type 'number'.",
      )
      const card = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').find(
        (update) => update.toolCallId === 'e1',
      )
      expect(card?.title).toBe('Edited src/count.ts (1 new error)')
      expect(JSON.stringify(card?.content)).toContain('src/count.ts:1:14 error TS2322')
    },
  )
})
