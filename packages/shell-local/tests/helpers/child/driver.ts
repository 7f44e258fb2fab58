// A child process that runs the real LocalShell: it starts a background job that leaves
// children of its own, prints the job's pid (its process group), then exits the way argv[2]
// says (`exit`: process.exit; `throw`: an uncaught error), so a test can check with the OS
// that no process of the job outlived it.
import { Context } from 'cordis'
import LocalShell from '../../../src/index'

const ctx = new Context()
await ctx.plugin(LocalShell, {})
const job = ctx.shell.jobs.run('job-1', {
  command: '(sleep 301 &); sleep 302 & sleep 303',
  cwd: process.cwd(),
})
process.stdout.write(`${job.pid}\n`)
setTimeout(() => {
  if (process.argv[2] === 'throw') throw new Error('the driver fails on purpose')
  process.exit(0)
}, 300)
