import { describe, expect, it } from 'vitest'
import { defaultSessionsDir } from '../src/index'

describe('default directory', () => {
  it('an absolute XDG_STATE_HOME holds the sessions', () => {
    expect(defaultSessionsDir({ XDG_STATE_HOME: '/state' }, '/home/me')).toBe('/state/dsh/sessions')
  })

  it('without XDG_STATE_HOME, or with a relative one, the sessions go under the home', () => {
    expect(defaultSessionsDir({}, '/home/me')).toBe('/home/me/.local/state/dsh/sessions')
    expect(defaultSessionsDir({ XDG_STATE_HOME: 'state' }, '/home/me')).toBe(
      '/home/me/.local/state/dsh/sessions',
    )
  })
})
