// The skill tool's card: `Load skill <name>`, kind read, located at its SKILL.md when the
// catalog has it; a failed load keeps the generic failure card.
import { describe, expect, it } from 'vitest'
import { presentSkillCall, presentSkillResult } from '../src/skill-tool/present'

describe('the skill card', () => {
  it('is a read titled with the name, at the SKILL.md when known', () => {
    expect(presentSkillCall({ name: 'review' }, '/p/.agents/skills/review/SKILL.md')).toEqual({
      title: 'Load skill review',
      kind: 'read',
      locations: [{ path: '/p/.agents/skills/review/SKILL.md' }],
    })
    expect(presentSkillCall({ name: 'nope' })).toEqual({ title: 'Load skill nope', kind: 'read' })
  })

  it('a loaded skill ends at its file; a failed one has no result card of its own', () => {
    const content = [{ type: 'text' as const, text: 'body' }]
    const done = { content, isError: false, details: { path: '/s/SKILL.md' } }
    expect(presentSkillResult({ name: 's' }, done)).toEqual({
      title: 'Load skill s',
      locations: [{ path: '/s/SKILL.md' }],
    })
    expect(presentSkillResult({ name: 's' }, { content, isError: true })).toBeUndefined()
  })
})
