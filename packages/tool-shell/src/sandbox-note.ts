// The line a confined command's result ends with when the sandbox is why it failed, named by
// what happened rather than by one message: no network (name resolution or a connection
// failing in a sandbox without network: `EAI_AGAIN`, `ENOTFOUND`, `Could not resolve host`,
// `Temporary failure in name resolution`, `Network is unreachable`, …), a write to a path the
// sandbox keeps read-only (`Read-only file system`, `EROFS`), or a path the command could not
// find that exists outside the sandbox. It names the cause and how to go further (`escalate`),
// so the model neither retries blindly nor works around it. Reads the disk only to check that
// a missing path exists outside; otherwise pure.
import { existsSync } from 'node:fs'
import { sep } from 'node:path'
import type { ShellExit } from '@deepseek-ai/dsh-shell'

const NO_NETWORK =
  /EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|No route to host|getaddrinfo|Failed to establish a new connection|Could not resolve|nodename nor servname|Couldn't resolve host|network is unreachable|dial tcp|unable to access '[^']*': Could not/
const READ_ONLY = /Read-only file system|EROFS/
const MISSING = /No such file or directory|ENOENT|cannot access|does not exist/
/** An absolute path in an error line. */
const ABSOLUTE_PATH = /(?:^|[\s'"`(=:])(\/[^\s'"`:;,)]+)/g

const ESCALATE =
  'run the command again with `escalate: true` and a `justification`; the person will be asked.'

export interface SandboxFacts {
  /** The sandbox lets commands reach the network. */
  network: boolean
  /** The session's roots: what the sandbox shows and lets a command write. */
  roots: readonly string[]
}

export function sandboxNote(
  exit: ShellExit,
  output: string,
  facts: SandboxFacts,
): string | undefined {
  if (exit.confined === undefined) return undefined
  if (!facts.network && NO_NETWORK.test(output)) {
    return `The sandbox has no network, so this command could not reach it. If it needs the network, ${ESCALATE}`
  }
  if (READ_ONLY.test(output)) {
    const kept =
      exit.confined === 'workspace'
        ? "The sandbox kept this command's writes inside the workspace"
        : 'The sandbox lets no command write in read-only mode'
    return `${kept}: a write elsewhere fails with "Read-only file system". To write there, ${ESCALATE}`
  }
  const hidden = hiddenPath(output, facts.roots)
  if (hidden !== undefined) {
    return `The sandbox does not show ${hidden} (outside the workspace), so the command could not find it. If it needs it, ${ESCALATE}`
  }
  return undefined
}

/** A path named in an error that says it is missing, outside the roots, which exists here. */
function hiddenPath(output: string, roots: readonly string[]): string | undefined {
  for (const line of output.split('\n')) {
    if (!MISSING.test(line)) continue
    for (const match of line.matchAll(ABSOLUTE_PATH)) {
      const path = match[1] as string
      const inside = roots.some(
        (root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep),
      )
      if (!inside && existsSync(path)) return path
    }
  }
  return undefined
}
