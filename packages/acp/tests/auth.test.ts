// Signing in, pure: what a client's capabilities say of terminal logins, `authenticate` against
// the methods a connection was offered, the gate's auth_required and `logout`. End to end over
// the bin (the terminal login, a session refused then opened): acp-agent's login tests.
import { RequestError } from '@agentclientprotocol/sdk'
import type { AuthMethod } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { assertSignedIn, authClientOf, authenticate, logout } from '../src/wire/auth'
import type { AcpAuth } from '../src/wire/auth'
import { acpInitializeResponse } from '../src/wire/replies'

const agentMethod: AuthMethod = { id: 'login', name: 'Log in' }

/** An app whose sign-in is `state.missing` (a message) until it is cleared. */
function appAuth(state: { missing?: string; loggedOut?: boolean }): AcpAuth {
  return {
    methods: () => [agentMethod],
    required: () => state.missing,
    logout: () => void (state.loggedOut = true),
  }
}

describe('a client that runs terminal logins', () => {
  it('says so with auth.terminal or with the terminal-auth meta', () => {
    expect(authClientOf({ auth: { terminal: true } })).toEqual({
      terminal: true,
      terminalMeta: false,
    })
    expect(authClientOf({ _meta: { 'terminal-auth': true } })).toEqual({
      terminal: true,
      terminalMeta: true,
    })
  })

  it('is none without either, or with a value other than true', () => {
    expect(authClientOf(undefined)).toEqual({ terminal: false, terminalMeta: false })
    expect(authClientOf({ auth: { terminal: false }, _meta: { 'terminal-auth': 'yes' } })).toEqual({
      terminal: false,
      terminalMeta: false,
    })
  })
})

describe('the gate and authenticate', () => {
  it('a session may open with no auth or when the app needs nothing', () => {
    expect(() => assertSignedIn(undefined)).not.toThrow()
    expect(() => assertSignedIn(appAuth({}))).not.toThrow()
  })

  it('a missing sign-in is auth_required (-32000) with the app words', () => {
    const error = catchError(() => assertSignedIn(appAuth({ missing: 'run x --login' })))
    expect(error).toBeInstanceOf(RequestError)
    expect(error.code).toBe(-32000)
    expect(error.message).toBe('Authentication required: run x --login')
  })

  it('authenticate answers {} once the app is signed in, and auth_required before', () => {
    const state: { missing?: string } = { missing: 'log in first' }
    const auth = appAuth(state)
    expect(catchError(() => authenticate(auth, [agentMethod], 'login')).code).toBe(-32000)
    delete state.missing
    expect(authenticate(auth, [agentMethod], 'login')).toEqual({})
  })

  it('authenticate with a method this connection was not offered is -32602 naming the offered ones', () => {
    const error = catchError(() => authenticate(appAuth({}), [agentMethod], 'other'))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('Unknown auth method "other": the methods are: login.')
  })

  it('authenticate is an unknown method when the app offers no sign-in', () => {
    expect(catchError(() => authenticate(undefined, [], 'login')).code).toBe(-32601)
  })

  it('logout runs the app logout, and is an unknown method without one', async () => {
    const state: { loggedOut?: boolean } = {}
    expect(await logout(appAuth(state))).toEqual({})
    expect(state.loggedOut).toBe(true)
    await expect(logout({ methods: () => [], required: () => undefined })).rejects.toMatchObject({
      code: -32601,
    })
  })
})

describe('initialize', () => {
  it('lists the methods and advertises logout only when served', () => {
    const info = { name: 'dsh', version: '1' }
    const none = acpInitializeResponse(info, false)
    expect(none.authMethods).toEqual([])
    expect(none.agentCapabilities?.auth).toBeUndefined()
    const signed = acpInitializeResponse(info, false, undefined, {
      methods: [agentMethod],
      logout: true,
    })
    expect(signed.authMethods).toEqual([agentMethod])
    expect(signed.agentCapabilities?.auth).toEqual({ logout: {} })
  })
})

function catchError(run: () => unknown): RequestError {
  try {
    run()
  } catch (error) {
    return error as RequestError
  }
  throw new Error('expected a RequestError')
}
