// Builds the packages the bin needs (this one and every workspace package it depends on) unless
// each dist is newer than every source file, so the e2e tests run the real built bin.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url))
export const REPO_ROOT = join(PACKAGE_DIR, '../..')
export const BIN = join(PACKAGE_DIR, 'dist/bin.cjs')
export const DEMO = join(PACKAGE_DIR, 'dist/demo.js')

function newestMtime(path: string): number {
  const info = statSync(path, { throwIfNoEntry: false })
  if (!info) return 0
  if (!info.isDirectory()) return info.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))))
}

function oldestBuild(packagesDir: string, names: string[]): number {
  const outputs = names.flatMap((name) => [join(packagesDir, name, 'dist/index.js')])
  outputs.push(BIN, DEMO)
  return Math.min(...outputs.map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0))
}

export function ensureBuilt(): void {
  const packagesDir = join(REPO_ROOT, 'packages')
  const names = readdirSync(packagesDir)
  const newestSource = Math.max(
    ...names.flatMap((name) => [
      newestMtime(join(packagesDir, name, 'src')),
      newestMtime(join(packagesDir, name, 'package.json')),
      newestMtime(join(packagesDir, name, 'tsup.config.ts')),
    ]),
  )
  if (oldestBuild(packagesDir, names) > newestSource) return
  try {
    execFileSync(
      'npx',
      ['-y', 'pnpm@12.4.2', '--filter', '@deepseek-ai/dsh-acp-agent...', 'run', 'build'],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
    )
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    const tail = `${stdout}${stderr}`.trim().split('\n').slice(-40).join('\n')
    throw new Error(`building the packages for the e2e tests failed:\n${tail}`, { cause: error })
  }
}
