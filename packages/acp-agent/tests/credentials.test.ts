// The stored keys on a real disk (a temporary config home): where the file goes, one key per
// server, the file's and the folder's modes, a damaged file, removal; and the hidden line of
// the terminal login, key by key as Node's readline reports them.
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiKeySource } from '../src/auth/api-key'
import { credentialsPath, readStoredKey, removeKey, storeKey } from '../src/auth/credentials'
import { applyKey, keyProblem } from '../src/auth/login'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-credentials')
const DEEPSEEK = 'https://api.deepseek.com'

describe('where the keys are kept', () => {
  it('under XDG_CONFIG_HOME, else under HOME/.config', () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/dsh/credentials.json')
    expect(credentialsPath({ XDG_CONFIG_HOME: ' ', HOME: '/h' })).toBe(
      '/h/.config/dsh/credentials.json',
    )
  })
})

describe('the credentials file', () => {
  it('keeps one key per server, 0600 in a folder made 0700, and no temporary file behind', async () => {
    const file = join(await tempDir('config'), 'dsh', 'credentials.json')
    storeKey(file, `${DEEPSEEK}/v1/`, 'sk-one')
    storeKey(file, 'http://127.0.0.1:8080/v1', 'sk-local')
    expect(readStoredKey(file, DEEPSEEK)).toEqual({ apiKey: 'sk-one' })
    expect(readStoredKey(file, 'http://127.0.0.1:8080')).toEqual({ apiKey: 'sk-local' })
    expect(readStoredKey(file, 'http://127.0.0.1:9999')).toEqual({})
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(join(file, '..'))).mode & 0o777).toBe(0o700)
    expect(await readdir(join(file, '..'))).toEqual(['credentials.json'])
  })

  it('a file readable by others is replaced by a 0600 one at the next login', async () => {
    const file = join(await tempDir('config'), 'credentials.json')
    await writeFile(file, JSON.stringify({ version: 1, keys: {} }))
    await chmod(file, 0o644)
    storeKey(file, DEEPSEEK, 'sk-two')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })

  it('removing the last key removes the file; removing a missing one says so', async () => {
    const file = join(await tempDir('config'), 'credentials.json')
    storeKey(file, DEEPSEEK, 'sk-one')
    storeKey(file, 'http://127.0.0.1:1', 'sk-local')
    expect(removeKey(file, DEEPSEEK)).toBe(true)
    expect(JSON.parse(await readFile(file, 'utf8')).keys).toHaveProperty(['http://127.0.0.1:1'])
    expect(removeKey(file, DEEPSEEK)).toBe(false)
    expect(removeKey(file, 'http://127.0.0.1:1')).toBe(true)
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('a damaged file is a problem named once, and a login replaces it', async () => {
    const dir = await tempDir('config')
    await mkdir(join(dir, 'dsh'))
    const file = join(dir, 'dsh', 'credentials.json')
    await writeFile(file, '{ not json')
    const warnings: string[] = []
    const keys = new ApiKeySource({
      env: {},
      file,
      baseUrl: DEEPSEEK,
      warn: (p) => warnings.push(p),
    })
    keys.refresh()
    expect(keys.current()).toBeUndefined()
    expect(warnings).toEqual([
      `${file} is not a dsh credentials file: run dsh-acp --login to store the key again`,
    ])
    storeKey(file, DEEPSEEK, 'sk-new')
    keys.refresh()
    expect([keys.current(), keys.origin()]).toEqual(['sk-new', 'stored'])
  })
})

describe('the hidden line of the login', () => {
  const type = (keys: [string | undefined, object | undefined][]) => {
    let state: ReturnType<typeof applyKey> = { text: '' }
    for (const [typed, key] of keys) {
      if (state.done) break
      state = applyKey(state.text, typed, key as Parameters<typeof applyKey>[2])
    }
    return state
  }

  it('takes printable keys, backspace and enter, and ignores arrows and control keys', () => {
    expect(
      type([
        ['s', { name: 's' }],
        ['k', { name: 'k' }],
        ['x', { name: 'x' }],
        ['\x7f', { name: 'backspace' }],
        [undefined, { name: 'left', sequence: '\x1b[D' }],
        ['\x01', { name: 'a', ctrl: true }],
        ['-', undefined],
        ['\r', { name: 'return' }],
        ['z', { name: 'z' }],
      ]),
    ).toEqual({ text: 'sk-', done: 'enter' })
  })

  it('ctrl-c cancels, and ctrl-d cancels an empty line', () => {
    expect(
      type([
        ['a', { name: 'a' }],
        ['\x03', { name: 'c', ctrl: true }],
      ]).done,
    ).toBe('cancel')
    expect(type([['\x04', { name: 'd', ctrl: true }]]).done).toBe('cancel')
  })

  it('a key with spaces or of no length is refused, saying why', () => {
    expect(keyProblem('')).toBe('no key was given')
    expect(keyProblem('sk one')).toBe('a key has no spaces or control characters')
    expect(keyProblem('x'.repeat(2000))).toMatch(/too long for a key/)
    expect(keyProblem('sk-0123abc')).toBeUndefined()
  })
})
