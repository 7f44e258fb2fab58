// Whether a working sandbox exists here: Linux, a `bwrap` that starts, and namespaces it may
// create. Checked once, when the provider first needs to know, by running `true` in the same kind of
// sandbox a command gets (network off, the strictest). The answer is why not, or nothing.
// Also the one explanation a person gets when commands cannot be sandboxed.
import { spawnSync } from 'node:child_process'
import { bwrapArgs } from './bwrap-args'

/** How long the check may take before bwrap is judged not to work. */
const PROBE_TIMEOUT_MS = 5000

/** Why no command can be sandboxed with `bwrap` here; `undefined` when one can. */
export function probeSandbox(
  bwrap: string,
  platform: string = process.platform,
): string | undefined {
  if (platform !== 'linux') return `the sandbox needs Linux (this is ${platform})`
  const args = bwrapArgs({
    writable: [],
    temp: [],
    readOnly: [],
    control: [],
    sockets: [],
    network: false,
    cwd: '/',
  })
  const probe = spawnSync(bwrap, [...args, 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  })
  const code = (probe.error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return `bubblewrap is not installed ("${bwrap}" was not found)`
  if (probe.error !== undefined) return `"${bwrap}" could not be run (${probe.error.message})`
  if (probe.status === 0) return undefined
  const said = probe.stderr.trim().split('\n')[0] ?? ''
  const status = probe.status === null ? `signal ${probe.signal}` : `exit code ${probe.status}`
  return `"${bwrap}" cannot create a sandbox here (${said || status}; are user namespaces disabled?)`
}

/** What a person reads, once per session, when commands run without a sandbox. */
export function unsandboxedExplanation(why: string): string {
  return (
    `Commands run without a sandbox here: ${why}. So in auto-edit a command that is not ` +
    'read-only is asked, and in read-only it is refused. To let commands run unasked while ' +
    'writing only inside the workspace, install bubblewrap (Debian or Ubuntu: ' +
    '`sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`; Arch: ' +
    '`sudo pacman -S bubblewrap`) and start the agent again.'
  )
}
