// The servers files: a project's .dsh/lsp.json and the person's dsh/lsp.json add a server, turn
// one off or change it; a bad file is an error naming the file and the entry, told once with
// the next edit's result, and changes nothing.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyServersFiles } from '../src/config'
import { BUILT_IN_SERVERS } from '../src/servers'
import { makeProject, mountTools, textOf } from './helpers/project'
import type { Mounted } from './helpers/project'

async function file(json: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-lsp-config-'))
  await writeFile(join(dir, 'lsp.json'), json)
  return join(dir, 'lsp.json')
}

const names = (specs: { name: string }[]) => specs.map((spec) => spec.name)

describe('servers files', () => {
  it('turn a built-in server off, and add one that comes first', async () => {
    const person = await file('{ "servers": { "python": { "disabled": true } } }')
    const project = await file(
      '{ "servers": { "lua": { "command": ["lua-language-server"], "extensions": [".lua"] } } }',
    )
    const { specs, errors } = applyServersFiles(BUILT_IN_SERVERS, [person, project, '/nope.json'])
    expect(errors).toEqual([])
    expect(names(specs)).toEqual(['lua', 'typescript', 'go', 'rust', 'c'])
    expect(specs[0]?.languages).toEqual({ '.lua': 'lua' })
  })

  it('name the file and the entry that is wrong, and change nothing for it', async () => {
    const unknown = await file('{ "servers": { "lua": { "command": ["lua-language-server"] } } }')
    const typo = await file('{ "servers": { "go": { "comand": ["gopls"] } } }')
    const broken = await file('{ "servers": ')
    const { specs, errors } = applyServersFiles(BUILT_IN_SERVERS, [unknown, typo, broken])
    expect(names(specs)).toEqual(names([...BUILT_IN_SERVERS]))
    expect(errors[0]).toBe(
      `${unknown}: servers.lua: a server dsh does not know needs "command" and "extensions".`,
    )
    expect(errors[1]).toMatch(new RegExp(`^${typo}: servers\\.go: Unrecognized key: "comand"`))
    expect(errors[2]).toMatch(new RegExp(`^${broken} is not valid JSON`))
  })
})

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.dispose()
  mounted = undefined
})

describe('a bad project file', () => {
  it("is told once, with the next edit's result, and the edit stands", async () => {
    const root = await makeProject({ 'a.txt': 'one\n' }, { typescript: false })
    await mkdir(join(root, '.dsh'))
    await writeFile(join(root, '.dsh', 'lsp.json'), '{ "servers": { "x": { "disabled": "yes" } } }')
    mounted = await mountTools(root, { sandbox: 'off' })
    const run = (from: string, to: string) =>
      mounted!.run('edit', { file_path: 'a.txt', old_string: from, new_string: to })
    const first = textOf(await run('one', 'two'))
      .split('\n')
      .slice(2)
    expect(first).toHaveLength(1)
    expect(first[0]).toMatch(
      /\.dsh\/lsp\.json: servers\.x\.disabled: Invalid input: expected boolean/,
    )
    expect(textOf(await run('two', 'three'))).toBe(
      `Edited file ${root}/a.txt: replaced 1 occurrence at line 1.`,
    )
  })
})
