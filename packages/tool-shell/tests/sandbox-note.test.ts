// The hint a confined command's result ends with, recognised by the cause and not by one
// wording: no network, a read-only path, a path the sandbox hides (checked on the real disk).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ShellExit } from '@deepseek-ai/dsh-shell'
import { sandboxNote } from '../src/sandbox-note'

const confined: ShellExit = {
  exitCode: 1,
  signal: null,
  timedOut: false,
  aborted: false,
  confined: 'workspace',
}
const facts = { network: false, roots: ['/work/project'] }
let outside: string

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), 'dsh-note-outside-'))
})
afterAll(async () => {
  await rm(outside, { recursive: true, force: true })
})

describe('no network', () => {
  it.each([
    'npm ERR! code EAI_AGAIN',
    'Error: getaddrinfo ENOTFOUND registry.npmjs.org',
    'curl: (6) Could not resolve host: example.com',
    'socket.gaierror: [Errno -3] Temporary failure in name resolution',
    'connect: Network is unreachable',
    "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
  ])('%s names the network and escalate', (output) => {
    const note = sandboxNote(confined, output, facts)
    expect(note).toMatch(/^The sandbox has no network/)
    expect(note).toContain('`escalate: true`')
  })

  it('says nothing of the network when the sandbox gives it', () => {
    expect(sandboxNote(confined, 'EAI_AGAIN', { ...facts, network: true })).toBeUndefined()
  })
})

describe('a read-only path', () => {
  it.each([
    'touch: cannot touch /etc/x: Read-only file system',
    "Error: EROFS: read-only file system, open '/x'",
  ])('%s names the read-only path and escalate', (output) => {
    const note = sandboxNote(confined, output, facts)
    expect(note).toContain('Read-only file system')
    expect(note).toContain('`escalate: true`')
  })

  it('in read-only mode says no command may write', () => {
    const note = sandboxNote({ ...confined, confined: 'read-only' }, 'EROFS', facts)
    expect(note).toMatch(/^The sandbox lets no command write in read-only mode/)
  })
})

describe('a path the sandbox hides', () => {
  it('names a missing path that exists outside the roots', () => {
    const output = `ls: cannot access '${outside}': No such file or directory`
    expect(sandboxNote(confined, output, facts)).toContain(`does not show ${outside}`)
  })

  it('says nothing of a path that exists nowhere, or lies inside the roots', () => {
    const gone = `cat: ${outside}/absent: No such file or directory`
    expect(sandboxNote(confined, gone, facts)).toBeUndefined()
    const inside = `cat: ${outside}: No such file or directory`
    expect(sandboxNote(confined, inside, { ...facts, roots: [outside] })).toBeUndefined()
  })
})

describe('an unconfined command', () => {
  it('gets no hint whatever its output', () => {
    const { confined: _, ...unconfined } = confined
    expect(sandboxNote(unconfined, 'EAI_AGAIN Read-only file system', facts)).toBeUndefined()
  })
})
