// Every tool package is in the stack and in the app's tree: a `packages/tool-*` folder that is
// not a dependency of the stack (package.json, tsconfig.json references), not imported by its
// steps, without its key in the options tree, or without that key in the app's tree
// (acp-agent/src/app-stack.ts, read as text: the app stands above the stack) fails here, naming
// what is missing. docs/adding-a-tool.md lists the files a new tool touches.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PACKAGES = fileURLToPath(new URL('../../', import.meta.url))
const STACK = join(PACKAGES, 'stack')

/** A tool loaded with another plugin, by the key of that plugin (else the folder's camelCase). */
const LOADED_WITH: Record<string, string> = {
  'tool-diagnostics': 'diagnostics',
}

const read = (...path: string[]) => readFileSync(join(...path), 'utf8')
const toolFolders = readdirSync(PACKAGES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name.startsWith('tool-'))
  .map((entry) => entry.name)
  .sort()
/** `tool-web` → `toolWeb`: the stack's options key of a tool package. */
const keyOf = (folder: string) =>
  LOADED_WITH[folder] ?? folder.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())

const pkg = JSON.parse(read(STACK, 'package.json')) as { dependencies: Record<string, string> }
const tsconfig = JSON.parse(read(STACK, 'tsconfig.json')) as { references: { path: string }[] }
const stackSources = readdirSync(join(STACK, 'src'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => read(STACK, 'src', name))
  .join('\n')
const options = read(STACK, 'src', 'options.ts')
const appTree = read(PACKAGES, 'acp-agent', 'src', 'app-stack.ts')

/** What of the stack and the app a tool package is missing from; empty when it is in all. */
function missing(folder: string): string[] {
  const name = `@deepseek-ai/dsh-${folder}`
  const key = keyOf(folder)
  const gaps: string[] = []
  if (pkg.dependencies[name] === undefined) gaps.push(`stack/package.json: ${name}`)
  if (!tsconfig.references.some((ref) => ref.path === `../${folder}`)) {
    gaps.push(`stack/tsconfig.json: a reference to ../${folder}`)
  }
  if (!stackSources.includes(`from '${name}`)) gaps.push(`stack/src: an import of ${name}`)
  if (!new RegExp(`\\b${key}\\?:`).test(options)) gaps.push(`stack/src/options.ts: ${key}?:`)
  if (!new RegExp(`\\b${key}:`).test(appTree)) gaps.push(`acp-agent/src/app-stack.ts: ${key}`)
  return gaps
}

describe('every tool package in the stack and the app', () => {
  it('finds the tool packages', () => {
    expect(toolFolders).toEqual(expect.arrayContaining(['tool-fs', 'tool-shell']))
  })

  it('names each place a tool package is missing from', () => {
    expect(missing('tool-nowhere')).toEqual([
      'stack/package.json: @deepseek-ai/dsh-tool-nowhere',
      'stack/tsconfig.json: a reference to ../tool-nowhere',
      'stack/src: an import of @deepseek-ai/dsh-tool-nowhere',
      'stack/src/options.ts: toolNowhere?:',
      'acp-agent/src/app-stack.ts: toolNowhere',
    ])
  })

  it.each(toolFolders)(
    '%s is a dependency of the stack, loaded by a key the app sets',
    (folder) => {
      expect(missing(folder), `see docs/adding-a-tool.md`).toEqual([])
    },
  )
})
