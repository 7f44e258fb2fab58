// Whether a working sandbox exists here: Linux, a `bwrap` that starts, and namespaces it may
// create. Checked once, by running `true` in the same kind of sandbox a command gets (network
// off, the strictest): ahead of time and without blocking (`probeSandboxAsync`, from the
// provider's warm-up when a session opens), or else when the provider first needs to know
// (`probeSandbox`, a child run synchronously). The answer is why not, or nothing.
// Also the one explanation a person gets when commands cannot be sandboxed.
import { spawn, spawnSync } from 'node:child_process'
import { bwrapArgs } from './bwrap-args'

/** How long the check may take before bwrap is judged not to work. */
const PROBE_TIMEOUT_MS = 5000

/** The sandbox the check runs `true` in. */
function probeArgs(): string[] {
  const args = bwrapArgs({
    writable: [],
    temp: [],
    readOnly: [],
    control: [],
    sockets: [],
    network: false,
    cwd: '/',
  })
  return [...args, 'true']
}

interface ProbeRun {
  error: NodeJS.ErrnoException | undefined
  status: number | null
  signal: string | null
  stderr: string
}

/** Why no command can be sandboxed with `bwrap` here; `undefined` when one can. */
export function probeSandbox(
  bwrap: string,
  platform: string = process.platform,
): string | undefined {
  if (platform !== 'linux') return notLinux(platform)
  const probe = spawnSync(bwrap, probeArgs(), {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  })
  return verdict(bwrap, { ...probe, error: probe.error as NodeJS.ErrnoException | undefined })
}

/** The same check, the child run without blocking this process. */
export function probeSandboxAsync(
  bwrap: string,
  platform: string = process.platform,
): Promise<string | undefined> {
  if (platform !== 'linux') return Promise.resolve(notLinux(platform))
  return new Promise((resolve) => {
    let stderr = ''
    const child = spawn(bwrap, probeArgs(), {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => (stderr += text))
    child.on('error', (error) =>
      resolve(verdict(bwrap, { error, status: null, signal: null, stderr })),
    )
    child.on('close', (status, signal) =>
      resolve(verdict(bwrap, { error: undefined, status, signal, stderr })),
    )
  })
}

function notLinux(platform: string): string {
  return `the sandbox needs Linux (this is ${platform})`
}

function verdict(bwrap: string, probe: ProbeRun): string | undefined {
  if (probe.error?.code === 'ENOENT')
    return `bubblewrap is not installed ("${bwrap}" was not found)`
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
