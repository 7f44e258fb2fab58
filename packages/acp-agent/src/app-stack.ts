// The app's options tree for the stack, from what the bin was started with: the stack's app
// tree (stack/src/app-tree.ts holds every choice) plus what only this process knows: its name
// and version, where a cut command's output is kept, and the folder of the key `--login`
// stored, which no sandboxed command may read. Pure apart from the environment it reads.
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { appTree } from '@deepseek-ai/dsh-stack'
import type { DshApp as DshStackApp, DshStackOptions } from '@deepseek-ai/dsh-stack'
import { credentialsPath } from './auth/credentials'
import { readVersion } from './version'

export type { DshWebOptions } from '@deepseek-ai/dsh-stack'

/** What the app is started with (the bin fills it from its flags); see the stack's DshApp. */
export type DshApp = Omit<DshStackApp, 'shellOutputDir' | 'agentInfo'>

/**
 * Under which the whole output of a cut command result is kept (in a private folder per
 * process): in the person's cache, which no sandbox may write, and kept read-only for
 * sandboxed commands even when a root holds it. Not under the temp folders, which a command
 * may write and so plant a link in before the folder exists.
 */
const SHELL_OUTPUT_DIR = join(cacheHome(), 'dsh', 'shell-output')

/** `$XDG_CACHE_HOME` when it is an absolute path, else `~/.cache`. */
function cacheHome(): string {
  const xdg = process.env.XDG_CACHE_HOME
  return xdg !== undefined && xdg.startsWith('/') ? xdg : join(homedir(), '.cache')
}

export function appStack(app: DshApp): DshStackOptions {
  return appTree({
    ...app,
    // The key `dsh-acp --login` stored (and the rest of dsh's config) stays unread.
    sandbox: { ...app.sandbox, hidden: [dirname(credentialsPath(process.env))] },
    shellOutputDir: SHELL_OUTPUT_DIR,
    agentInfo: { name: 'dsh', title: 'dsh', version: readVersion() },
  })
}
