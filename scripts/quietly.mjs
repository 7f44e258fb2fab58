// Runs commands one after another with their output held back: a line says what runs and how
// long it took; the held output is printed only when a command fails, and the exit code is
// that command's. `npm run demo` builds with it, so what a person reads is the demo, not
// hundreds of lines of build logs.
// Usage: node scripts/quietly.mjs "<label>" <command> [args…] [-- "<label>" <command> [args…]]…
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'

/** The commands on the line, split at `--`: each a label, then the command and its arguments. */
function stepsOf(argv) {
  const steps = []
  let words = []
  for (const word of [...argv, '--']) {
    if (word !== '--') {
      words.push(word)
      continue
    }
    if (words.length < 2) {
      throw new Error('each step needs a label and a command: "<label>" <command> [args…]')
    }
    const [label, command, ...args] = words
    steps.push({ label, command, args })
    words = []
  }
  return steps
}

/** Runs one step with its output held; resolves with its exit code and that output. */
function runHeld({ command, args }) {
  return new Promise((resolve) => {
    const chunks = []
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.stderr.on('data', (chunk) => chunks.push(chunk))
    child.on('error', (error) => resolve({ code: 127, output: `${error.message}\n` }))
    child.on('close', (code, signal) => {
      resolve({ code: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString() })
    })
  })
}

let steps
try {
  steps = stepsOf(process.argv.slice(2))
} catch (error) {
  process.stderr.write(`quietly: ${error.message}\n`)
  process.exit(2)
}
for (const step of steps) {
  const started = performance.now()
  process.stdout.write(`${step.label}… `)
  const { code, output } = await runHeld(step)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (code === 0) {
    process.stdout.write(`done (${seconds} s)\n`)
    continue
  }
  process.stdout.write(`failed (exit ${code}, ${seconds} s): its output follows\n\n`)
  process.stdout.write(output)
  process.exit(code)
}
