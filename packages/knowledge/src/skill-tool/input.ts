// The skill tool's input: the name of one skill of the session's catalog.
import { z } from 'zod'

export const skillInput = z.object({
  name: z.string().min(1).describe('The name of the skill to load, as the catalog lists it.'),
})

export type SkillArgs = z.infer<typeof skillInput>
