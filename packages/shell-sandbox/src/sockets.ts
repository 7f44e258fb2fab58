// The unix sockets a confined command must not reach. Connecting to a socket file needs no
// write permission on its filesystem, so a read-only bind does not stop it: the person's
// D-Bus, ssh-agent, gpg-agent or Docker socket would take orders from inside the sandbox. The
// sockets listening in the agent's network namespace are listed by the kernel in
// /proc/net/unix; each one whose file exists and that `cover` picks is covered with /dev/null
// in the sandbox. The limits: a socket made after the command starts is not covered, and an
// abstract socket (no file, `@name`) is reachable when the network is allowed (the sandbox's
// own network namespace, the default, has none of the host's).
import { lstatSync, readFileSync, realpathSync } from 'node:fs'

/** Beyond this many, the rest are left (a host with thousands of sockets: the list is cut). */
const MAX_SOCKETS = 256

/** The real paths of the listening unix sockets to cover: those `cover` says yes to. */
export function socketsToCover(
  cover: (path: string) => boolean,
  table: string = readTable(),
): string[] {
  const found = new Set<string>()
  for (const line of table.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is the eighth field, if any.
    const path = line.trim().split(/\s+/).slice(7).join(' ')
    if (!path.startsWith('/') || found.size >= MAX_SOCKETS) continue
    const real = realSocket(path)
    if (real !== undefined && cover(real)) found.add(real)
  }
  return [...found].sort()
}

function readTable(): string {
  try {
    return readFileSync('/proc/net/unix', 'utf8')
  } catch {
    return '' // no /proc: nothing known to cover
  }
}

/** The real path of a socket file that exists; `undefined` for a stale entry or another file. */
function realSocket(path: string): string | undefined {
  try {
    return lstatSync(path).isSocket() ? realpathSync(path) : undefined
  } catch {
    return undefined
  }
}
