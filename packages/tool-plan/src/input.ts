// The todo tool's input: the whole plan, each item with its status and an optional priority.
// The schema the model is given (z.toJSONSchema) and the type the presenters take.
import { z } from 'zod'

export const todoInput = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('The step, as a short imperative sentence.'),
        status: z
          .enum(['pending', 'in_progress', 'completed'])
          .describe('pending, in_progress (at most one item) or completed.'),
        priority: z
          .enum(['high', 'medium', 'low'])
          .optional()
          .describe('How much the step matters (default medium).'),
      }),
    )
    .describe('The whole plan, in order; it replaces the previous list.'),
})

export type TodoArgs = z.infer<typeof todoInput>
