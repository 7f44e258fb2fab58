// The system-prompt section that teaches the model the shell tools.
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './input'
import { OUTPUT_CAP_CHARS } from './output'

export const bashPrompt = `## Running commands: bash, job_output, job_kill
- bash runs \`bash -c <command>\` in the session workspace, a new process each call: no state
  (cd, variables) carries over between calls. stdin is empty: never run anything interactive.
- Give a short \`description\` (5-10 words); the person sees it with the command.
- The result is the output (stdout and stderr interleaved), then one line: \`exit code N\`,
  \`killed by signal S\` or \`timed out after T s\`. Output over ${OUTPUT_CAP_CHARS} characters keeps
  its head and tail, and names a file holding all of it: read or grep that file.
- \`timeout\` is in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).
- For servers and watchers use \`run_in_background: true\`: the result names the job (the call
  id); read its new output with job_output and end it with job_kill.
- Use the read, write and edit tools for files, not cat, sed or echo redirection. A command
  that changes a file you read makes your next edit of it fail until you read it again.
- Plain read-only commands (ls, cat, grep, rg, find, git status/diff/log/show, ...) with
  literal arguments inside the workspace run without asking; others may need the person's
  approval. Write \`./*.ts\` rather than \`*.ts\`, and avoid variables in read-only commands.
- Commands may run in a sandbox that lets them write only inside the workspace (and a private
  /tmp), with no network: a write elsewhere fails with "Read-only file system". Only when a
  command truly must write outside, run it again with \`escalate: true\` and a one-line
  \`justification\`; the person is asked. A command that needs the network (a package
  install, a fetch) is not run in such a sandbox: escalate it the same way.`
