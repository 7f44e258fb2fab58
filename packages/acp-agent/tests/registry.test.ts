// The app's entry for the ACP registry (registry/dsh/agent.json and icon.svg), checked against
// the registry's rules (./helpers/registry-format), with its version and npx package pinned to
// what `npm run pack:app` publishes: the package's version, under the packed name.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_DIR } from './helpers/build'
import { agentEntryProblems, iconProblems } from './helpers/registry-format'

const ENTRY_DIR = join(PACKAGE_DIR, 'registry', 'dsh')
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as unknown

describe('the registry entry', () => {
  it('follows the registry format', async () => {
    expect(agentEntryProblems(await readJson(join(ENTRY_DIR, 'agent.json')), 'dsh')).toEqual([])
  })

  it('has the version of package.json, and npx pins the packed package at it', async () => {
    const entry = (await readJson(join(ENTRY_DIR, 'agent.json'))) as {
      version: string
      distribution: { npx: { package: string } }
    }
    const app = (await readJson(join(PACKAGE_DIR, 'package.json'))) as { version: string }
    const pack = await readFile(join(PACKAGE_DIR, 'scripts', 'pack.mjs'), 'utf8')
    const packed = /name: '(@[^']+)'/.exec(pack)?.[1]
    expect(entry.version).toBe(app.version)
    expect(entry.distribution.npx.package).toBe(`${packed}@${app.version}`)
  })

  it('has a 16x16 icon painted with currentColor', async () => {
    const svg = await readFile(join(ENTRY_DIR, 'icon.svg'), 'utf8')
    expect(iconProblems(svg)).toEqual([])
    expect(svg).toMatch(/<svg[^>]*\swidth="16"[^>]*\sheight="16"/)
  })
})

describe('the format check', () => {
  const good = {
    id: 'dsh',
    name: 'dsh',
    version: '1.2.3',
    description: 'An agent',
    distribution: { npx: { package: '@scope/dsh@1.2.3' } },
  }

  it('names each broken rule of an entry', () => {
    expect(agentEntryProblems(good, 'dsh')).toEqual([])
    expect(
      agentEntryProblems(
        {
          ...good,
          id: 'Dsh',
          version: 'one',
          repository: 'not a uri',
          distribution: { npx: { package: '@scope/dsh@latest', extra: 1 }, docker: {} },
        },
        'dsh',
      ),
    ).toEqual([
      'id must start with a letter and hold lowercase letters, digits and hyphens',
      'version must be a semantic version (1.0.0)',
      'repository must be a URI',
      'npx has an unknown field extra',
      'npx uses @latest: pin a version',
      "npx package version latest is not the entry's one",
      'unknown distribution docker',
    ])
  })

  it('refuses a package pinned at another version and an id unlike its folder', () => {
    const other = { ...good, distribution: { npx: { package: '@scope/dsh@1.2.4' } } }
    expect(agentEntryProblems(other, 'agent')).toEqual([
      'id dsh must match its folder agent',
      "npx package version 1.2.4 is not the entry's 1.2.3",
    ])
  })

  it('refuses an icon of another size or with a colour of its own', () => {
    const svg = '<svg width="24" height="24"><path fill="#ff0000" style="stroke: red"/></svg>'
    expect(iconProblems(svg)).toEqual([
      'the icon must be 16x16, not 24x24',
      'hardcoded fill="#ff0000"',
      'hardcoded style stroke',
      'the icon must paint with currentColor',
    ])
  })
})
