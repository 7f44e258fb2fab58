// The one check of whether a sandbox works here, and the arguments a confined command gets.
import { describe, expect, it } from 'vitest'
import { bwrapArgs, probeSandbox } from '../src/index'

describe('the sandbox check', () => {
  it('finds the installed bwrap working', () => {
    expect(probeSandbox('bwrap')).toBeUndefined()
  })

  it('says bubblewrap is not installed when the program is missing', () => {
    expect(probeSandbox('/nonexistent/bwrap')).toBe(
      'bubblewrap is not installed ("/nonexistent/bwrap" was not found)',
    )
  })

  it('says bwrap cannot create a sandbox when it fails', () => {
    expect(probeSandbox('false')).toMatch(/^"false" cannot create a sandbox here \(exit code 1;/)
  })

  it('says the sandbox needs Linux elsewhere', () => {
    expect(probeSandbox('bwrap', 'darwin')).toBe('the sandbox needs Linux (this is darwin)')
  })
})

describe('the bwrap arguments', () => {
  it('bind the roots writable over a read-only filesystem and a private /tmp', () => {
    const args = bwrapArgs({
      writable: ['/w/a'],
      visible: ['/w/a', '/r'],
      network: false,
      cwd: '/w/a',
    })
    expect(args.join(' ')).toBe(
      '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --ro-bind /r /r --bind /w/a /w/a ' +
        '--unshare-net --die-with-parent --chdir /w/a --',
    )
  })

  it('keep the network when it is allowed, and never start a new session', () => {
    const args = bwrapArgs({ writable: [], visible: [], network: true, cwd: '/' })
    expect(args).not.toContain('--unshare-net')
    expect(args).not.toContain('--new-session')
    expect(args).not.toContain('--bind')
  })
})
