// NoticeLlm: the model dsh-acp runs when none is configured. It answers every prompt with one
// message saying how to configure a model, then finishes with 'stop', so an editor shows a
// useful reply instead of an error, a crash or a prompt that never ends.
// It is not a model: it ignores the conversation and never calls tools.
import type { Context } from 'cordis'
import { Llm, throwIfAborted } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'

export const NOTICE_TEXT = [
  'No model is configured for dsh, so I cannot work on this yet.',
  '',
  'To use DeepSeek, set DEEPSEEK_API_KEY in the environment of the agent process (in Zed:',
  "the `env` of this agent's `agent_servers` entry) and start it again. Choose the model with",
  '`--model NAME` (default deepseek-flash). For another OpenAI-compatible server (a local one',
  'needs no key), pass `--base-url URL`.',
  '',
  'To replay a scripted session without a key or network, start dsh-acp with `--script FILE`.',
].join('\n')

export default class NoticeLlm extends Llm {
  constructor(ctx: Context) {
    super(ctx)
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    // One event per line keeps the reply streaming like a real model's would.
    const lines = NOTICE_TEXT.split('\n')
    for (const [index, line] of lines.entries()) {
      throwIfAborted(request.signal)
      yield { type: 'text-delta', text: index < lines.length - 1 ? `${line}\n` : line }
    }
    throwIfAborted(request.signal)
    yield { type: 'finish', reason: 'stop' }
  }
}
