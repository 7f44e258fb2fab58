// Skills and the person's commands on a real temporary disk: what makes a skill invalid (named
// with its file), `$ARGUMENTS` in a command, the first place winning a skill's name, and the
// catalog following its files as they change.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { commandPrompt, findCommands } from '../src/commands'
import { ProjectCatalog } from '../src/project-catalog'
import { findSkills } from '../src/skills'
import { skillCatalogText } from '../src/skill-catalog'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tree(files: Record<string, string>): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-catalog-')))
  dirs.push(root)
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  return root
}

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`

describe('skills', () => {
  it('invalid skills are left out with their file and problem; the first place wins a name', async () => {
    const root = await tree({
      'a/good/SKILL.md': skill('good', 'From a.'),
      'a/none/SKILL.md': 'No front matter.\n',
      'a/open/SKILL.md': '---\nname: open\n',
      'a/bad-yaml/SKILL.md': '---\nname: [unclosed\n---\n',
      'a/Upper/SKILL.md': skill('Upper', 'Caps.'),
      'a/other/SKILL.md': skill('elsewhere', 'Wrong folder.'),
      'b/good/SKILL.md': skill('good', 'From b.'),
      'b/more/SKILL.md': skill('more', 'From b too.'),
    })
    const { skills, problems } = await findSkills([join(root, 'a'), join(root, 'b')])
    expect(skills.map((s) => [s.name, s.description])).toEqual([
      ['good', 'From a.'],
      ['more', 'From b too.'],
    ])
    const byFile = Object.fromEntries(
      problems.map((p) => [p.path.slice(root.length + 1), p.problem]),
    )
    expect(byFile['a/none/SKILL.md']).toMatch(/^it has no front matter/)
    expect(byFile['a/open/SKILL.md']).toBe(
      'its front matter opens with "---" but no line "---" closes it',
    )
    expect(byFile['a/bad-yaml/SKILL.md']).toMatch(/^its front matter is not valid YAML/)
    expect(byFile['a/Upper/SKILL.md']).toMatch(/not lower-case letters/)
    expect(byFile['a/other/SKILL.md']).toBe(
      'its name "elsewhere" is not its folder\'s name "other"',
    )
    expect(skillCatalogText(skills)).toContain('- good: From a.')
  })
})

describe("the person's commands", () => {
  it('every $ARGUMENTS is replaced; without one the text is appended', async () => {
    const root = await tree({
      'c/fix.md': '---\ndescription: Fix it\n---\nFix $ARGUMENTS now, $ARGUMENTS first.\n',
      'c/plain.md': '# Explain the code\nExplain it.\n',
      'c/bad name.md': 'x',
    })
    const { commands, problems } = await findCommands([join(root, 'c')])
    const fix = commands.find((c) => c.name === 'fix')!
    const plain = commands.find((c) => c.name === 'plain')!
    expect(fix.description).toBe('Fix it')
    expect(plain.description).toBe('Explain the code')
    expect(await commandPrompt(fix, 'a.ts')).toBe('Fix a.ts now, a.ts first.')
    expect(await commandPrompt(plain, 'slowly')).toBe('# Explain the code\nExplain it.\n\nslowly')
    expect(problems.map((p) => p.problem)).toEqual([
      '"bad name" cannot be a command name: use letters, digits, ".", "_" and "-"',
    ])
  })
})

describe('the catalog', () => {
  it('follows its files, a place made later included', async () => {
    const root = await tree({ 'skills/one/SKILL.md': skill('one', 'First.') })
    const catalog = new ProjectCatalog({
      skills: [join(root, 'skills')],
      commands: [join(root, '.agents/commands')],
    })
    await catalog.ready
    let changes = 0
    catalog.onChange(() => changes++)
    await mkdir(join(root, 'skills/two'))
    await writeFile(join(root, 'skills/two/SKILL.md'), skill('two', 'Second.'))
    await vi.waitFor(() => expect(catalog.skills.map((s) => s.name)).toEqual(['one', 'two']))
    await mkdir(join(root, '.agents/commands'), { recursive: true })
    await vi.waitFor(() => expect(changes).toBeGreaterThan(0))
    await writeFile(join(root, '.agents/commands/hi.md'), 'Hi $ARGUMENTS')
    await vi.waitFor(() => expect(catalog.commands.map((c) => c.name)).toEqual(['hi']))
    catalog.close()
  })
})
