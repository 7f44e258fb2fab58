// Starts the bundled driver in a child process and waits for its first line.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

export interface DriverChild {
  child: ChildProcessWithoutNullStreams
  /** Everything the child printed so far. */
  output: () => string
  /** Resolves when the child has exited and its output is complete. */
  closed: Promise<void>
}

/** Spawns `node <script> <args>`; resolves once it printed its first line. */
export async function startDriver(script: string, args: string[]): Promise<DriverChild> {
  const child = spawn(process.execPath, [script, ...args], { stdio: 'pipe' })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) resolve()
    })
    void closed.then(() =>
      reject(new Error(`driver ${args.join(' ')} ended before its first line: ${stderr}`)),
    )
  })
  return { child, output: () => stdout, closed }
}
