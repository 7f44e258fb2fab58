// Types of ctx.systemPrompt: a section as a plugin adds it and as it is listed, and what one
// assembly returns.
import type { ToolSchema } from '@deepseek-ai/dsh-tools'

export interface PromptSectionInput {
  /** Unique among the added sections; names the section in errors and listings. */
  name: string
  text: string
  /** Lower first; default 100. Ties keep the order sections were added in. */
  order?: number
}

export interface PromptSection {
  name: string
  text: string
  order: number
}

export interface AssembledPrompt {
  system: string
  tools: ToolSchema[]
}
