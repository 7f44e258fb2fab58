// The stack's warm-up: what a session's first command would otherwise wait for is made ready
// while the session is quiet. A session that opens (its `session/new` / `load` / `resume`
// answer sent) is left alone for WARM_UP_DELAY_MS, and a turn running then is let finish: only
// then do the tools get `tools/warm-up` with its agent. The permission layer resolves the
// session's roots (every session), and tool-shell readies a whole first command once per
// process (the bash grammar, about 100 ms of CPU; the argument check; the shell's own warm-up,
// a sandbox's bwrap check among it; one call of the tool with nothing shown). So a first prompt
// sent at once never shares the CPU with it (its text comes first), and a command in that first
// turn loads what it needs itself. A session closed before its warm-up gets none. Nothing is
// awaited here.
import type { Context } from 'cordis'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp' // and the acp/session-open event
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: the tools/warm-up event

export const name = 'warm-up'

/** How long a session that opened is left alone before its warm-up, in ms. */
export const WARM_UP_DELAY_MS = 500

export function apply(ctx: Context): void {
  const pending = new Set<() => void>()
  ctx.on('acp/session-open', (session) => {
    const stop = warmUpWhenQuiet(session, () => ctx.emit('tools/warm-up', session.agent))
    pending.add(stop)
    session.onClose(() => {
      stop()
      pending.delete(stop)
    })
  })
  ctx.effect(
    () => () => {
      for (const stop of pending) stop()
      pending.clear()
    },
    'warm-ups not yet sent',
  )
}

/** Runs `warm` once the session was quiet WARM_UP_DELAY_MS with no turn running; returns the cancel. */
function warmUpWhenQuiet(session: AcpSessionOpening, warm: () => void): () => void {
  const { agent } = session
  let timer: NodeJS.Timeout | undefined
  let unsubscribe: (() => void) | undefined
  let stopped = false
  const stop = () => {
    stopped = true
    clearTimeout(timer)
    unsubscribe?.()
  }
  const wait = () => {
    timer = setTimeout(() => {
      if (stopped || agent.disposed) return
      if (!agent.running) {
        stop()
        warm()
        return
      }
      // A turn runs: wait for its end, then for the quiet again.
      unsubscribe = agent.subscribe((event) => {
        if (event.type !== 'turn/end') return
        unsubscribe?.()
        wait()
      })
    }, WARM_UP_DELAY_MS)
    timer.unref()
  }
  wait()
  return stop
}
