import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { deploy, textOf } from './helpers/deployment'
import type { Deployment } from './helpers/deployment'

let d: Deployment | undefined
afterEach(async () => {
  await d?.close()
  d = undefined
})

describe('reading a file', () => {
  it('shows numbered lines with the end-of-file footer', async () => {
    d = await deploy()
    const file = join(d.dir, 'a.txt')
    await writeFile(file, 'first line\nsecond line\n')
    const result = await d.run(d.agent('s1'), 'read', { file_path: 'a.txt' })
    expect(textOf(result)).toBe(
      `<path>${file}</path>\n<type>file</type>\n<content>\n1: first line\n2: second line\n\n(End of file - total 2 lines)\n</content>`,
    )
    expect(result.details).toEqual({
      path: file,
      startLine: 1,
      endLine: 2,
      totalLines: 2,
      capped: false,
      lines: ['first line', 'second line'],
    })
  })

  it('shows an empty file as 0 lines', async () => {
    d = await deploy()
    await writeFile(join(d.dir, 'e.txt'), '')
    const result = await d.run(d.agent('s1'), 'read', { file_path: 'e.txt' })
    expect(textOf(result)).toContain('<content>\n(End of file - total 0 lines)\n</content>')
  })

  it('reads the same window through the byte path as through readText', async () => {
    const text = '\ufeffalpha\r\nbeta\r\n' + 'gamma\n'.repeat(50) + 'é€😀\n'
    d = await deploy()
    await writeFile(join(d.dir, 'm.txt'), text)
    const viaText = textOf(
      await d.run(d.agent('s1'), 'read', { file_path: 'm.txt', offset: 2, limit: 60 }),
    )
    const bytes = await deploy({ tools: { smallFileBytes: 0 } })
    await writeFile(join(bytes.dir, 'm.txt'), text)
    const viaBytes = textOf(
      await bytes.run(bytes.agent('s1'), 'read', { file_path: 'm.txt', offset: 2, limit: 60 }),
    )
    await bytes.close()
    expect(viaBytes.replace(bytes.dir, '')).toBe(viaText.replace(d.dir, ''))
    expect(viaText).toContain('2: beta\n3: gamma\n')
    expect(viaText).toContain('53: é€😀\n\n(End of file - total 53 lines)')
    const first = textOf(await d.run(d.agent('s1'), 'read', { file_path: 'm.txt', limit: 1 }))
    expect(first).toContain('<content>\n1: alpha\n\n(Showing lines 1-1 of 53.')
  })

  it('presents the window as the file has it, at its first line', async () => {
    d = await deploy()
    await writeFile(join(d.dir, 'p.ts'), 'a\r\nb\r\nc\n')
    const args = { file_path: 'p.ts', offset: 2 }
    const result = await d.run(d.agent('s1'), 'read', args)
    expect(d.ctx.tools.presentResult('read', args, result, { cwd: d.dir })).toEqual({
      title: 'Read p.ts',
      content: [
        { type: 'text', text: 'Lines 2–3 of 3' },
        { type: 'text', text: '```typescript\nb\nc\n```' },
      ],
      locations: [{ path: 'p.ts', line: 2 }],
    })
  })

  it('presents a failed read with the workspace path as the title has it', async () => {
    d = await deploy()
    const args = { file_path: join(d.dir, 'src/nope.ts') }
    const result = await d.run(d.agent('s1'), 'read', args)
    expect(textOf(result)).toContain(join(d.dir, 'src/nope.ts'))
    expect(d.ctx.tools.presentResult('read', args, result, { cwd: d.dir })).toEqual({
      content: [{ type: 'text', text: 'Error: File not found: src/nope.ts' }],
    })
  })
})

describe('read errors', () => {
  it('reports a missing file with FS_NOT_FOUND', async () => {
    d = await deploy()
    const result = await d.run(d.agent('s1'), 'read', { file_path: 'nope.txt' })
    expect(result.error).toEqual({ name: 'FsError', code: 'FS_NOT_FOUND' })
    expect(textOf(result)).toBe(`Error: File not found: ${join(d.dir, 'nope.txt')}`)
  })

  it('reports a directory with FS_NOT_REGULAR_FILE', async () => {
    d = await deploy()
    await mkdir(join(d.dir, 'sub'))
    const result = await d.run(d.agent('s1'), 'read', { file_path: 'sub' })
    expect(result.error).toEqual({ name: 'FsError', code: 'FS_NOT_REGULAR_FILE' })
    expect(textOf(result)).toBe(
      `Error: ${join(d.dir, 'sub')} is a directory, not a file. Read a file inside it.`,
    )
  })

  it('reports a binary file with FS_NOT_TEXT on both paths', async () => {
    for (const smallFileBytes of [256 * 1024, 0]) {
      const stack = await deploy({ tools: { smallFileBytes } })
      await writeFile(join(stack.dir, 'bin'), Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x0a]))
      const result = await stack.run(stack.agent('s1'), 'read', { file_path: 'bin' })
      await stack.close()
      expect(result.error).toEqual({ name: 'FsError', code: 'FS_NOT_TEXT' })
    }
  })

  it('reports an offset past the end with the line count and observes nothing', async () => {
    d = await deploy()
    const file = join(d.dir, 'short.txt')
    await writeFile(file, 'a\nb\n')
    const agent = d.agent('s1')
    const result = await d.run(agent, 'read', { file_path: file, offset: 5 })
    expect(result.error).toEqual({ name: 'FsError', code: 'FS_OFFSET_PAST_END' })
    expect(textOf(result)).toBe(
      `Error: Offset 5 is past the end of ${file}, which has 2 lines. Use an offset from 1 to 2.`,
    )
    const write = await d.run(agent, 'write', { file_path: file, content: 'x' })
    expect(write.error?.code).toBe('FS_NOT_OBSERVED')
  })

  it('names each bad argument with TOOL_INVALID_ARGUMENTS', async () => {
    d = await deploy()
    const agent = d.agent('s1')
    const cases: [string, unknown, string][] = [
      ['read', {}, 'file_path'],
      ['read', { file_path: 'a', offset: 0 }, 'offset'],
      ['read', { file_path: 'a', limit: 'ten' }, 'limit'],
      ['read', { file_path: 'a', offset: 1.5 }, 'offset'],
      ['write', { file_path: 'a' }, 'content'],
      ['write', { file_path: '', content: '' }, 'file_path'],
      ['write', { file_path: 'x\ud800', content: '' }, 'file_path: must be valid Unicode text'],
      ['read', { file_path: 'a\u0000b' }, 'file_path: must not contain a NUL character'],
      ['edit', { file_path: 'a', old_string: 'x' }, 'new_string'],
      [
        'edit',
        { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' },
        'replace_all',
      ],
    ]
    for (const [tool, args, field] of cases) {
      const result = await d.run(agent, tool, args)
      expect(result.error, `${tool} ${JSON.stringify(args)}`).toEqual({
        name: 'ToolError',
        code: 'TOOL_INVALID_ARGUMENTS',
      })
      expect(textOf(result)).toContain(field)
    }
  })
})
