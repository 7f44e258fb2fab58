// Shared by the undo tests: a git that logs each run's subcommand and options before it runs
// the real one, and the runs it logged.
import { execFileSync } from 'node:child_process'
import { chmod, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from './turns'

/** A git that writes each run's subcommand and options to `log`, then runs the real one. */
export async function loggingGit(log: string): Promise<string> {
  const real = execFileSync('sh', ['-c', 'command -v git']).toString().trim()
  const program = join(await tempDir('bin'), 'git')
  await writeFile(program, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`)
  await chmod(program, 0o755)
  return program
}

/** The subcommands git ran (after the isolating `-c` options), in order. */
export async function runs(log: string): Promise<string[]> {
  const text = await readFile(log, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^(-c \S+ )*(--literal-pathspecs )?/, ''))
}
