// The provider's config, and the servers files: the person's `$XDG_CONFIG_HOME/dsh/lsp.json`
// and a project's `.dsh/lsp.json` (the project's wins), each adding a server or turning one
// off, validated with zod. A bad file is an error that names the file and the entry, and the
// servers it would change are left as they were.
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { findProgram } from './servers'
import type { ServerSpec } from './servers'

export const Config = z
  .object({
    /** The longest an edit waits for a running server's diagnostics. */
    waitMs: z.number().int().min(0).default(2000),
    /** The longest an edit waits for a server's first start (initialize and first check). */
    startMs: z.number().int().min(0).default(8000),
    /** Report warnings too, not errors only. */
    warnings: z.boolean().default(false),
    /** Run servers in bubblewrap's read-only sandbox where it works (`off`: never). */
    sandbox: z.enum(['auto', 'off']).default('auto'),
    /** The bubblewrap program. */
    bwrap: z.string().default('bwrap'),
    /** The person's config folder (default `$XDG_CONFIG_HOME` or `~/.config`), for dsh/lsp.json. */
    configHome: z.string().optional(),
    /** Milliseconds between SIGTERM and SIGKILL when a server is ended. */
    killGraceMs: z.number().int().positive().default(2000),
    /** Files an edit's importers are looked for among (a project's source files, at most). */
    scanFiles: z.number().int().min(0).default(5000),
  })
  .prefault({})

export type LspDiagnosticsConfig = z.input<typeof Config>
export type LspDiagnosticsOptions = z.output<typeof Config>

const ServerEntry = z
  .object({
    disabled: z.boolean().optional(),
    command: z.array(z.string().min(1)).min(1).optional(),
    extensions: z.array(z.string().regex(/^\.[^./]+$/, 'an extension like ".lua"')).optional(),
    languageId: z.string().min(1).optional(),
    rootMarkers: z.array(z.string().min(1)).optional(),
    initializationOptions: z.unknown().optional(),
  })
  .strict()

const ServersFile = z.object({ servers: z.record(z.string(), ServerEntry) }).strict()

type ServerEntry = z.output<typeof ServerEntry>

/** The servers files that apply to a workspace, person's first, project's last. */
export function serversFiles(workspace: string, configHome: string | undefined): string[] {
  const home = configHome ?? process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config')
  return [join(home, 'dsh', 'lsp.json'), join(workspace, '.dsh', 'lsp.json')]
}

/**
 * The built-in servers changed by the files that exist among `files`: each entry turns a
 * server off, changes it, or adds one. A file that is not valid JSON or not this shape is
 * reported (`errors`) and skipped.
 */
export function applyServersFiles(
  builtIn: readonly ServerSpec[],
  files: readonly string[],
): { specs: ServerSpec[]; errors: string[] } {
  let specs = [...builtIn]
  const errors: string[] = []
  for (const file of files) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue // No such file: nothing to change.
    }
    const parsed = parseServersFile(file, text)
    if (typeof parsed === 'string') {
      errors.push(parsed)
      continue
    }
    for (const [name, entry] of Object.entries(parsed)) {
      const made = applyEntry(specs, name, entry)
      if (typeof made === 'string') errors.push(`${file}: servers.${name}: ${made}`)
      else specs = made
    }
  }
  return { specs, errors }
}

function parseServersFile(file: string, text: string): Record<string, ServerEntry> | string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return `${file} is not valid JSON (${(error as Error).message}); fix it or remove it.`
  }
  const result = ServersFile.safeParse(json)
  if (result.success) return result.data.servers
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : '(the file)'
  return `${file}: ${where}: ${issue?.message ?? 'invalid'}. Expected { "servers": { "<name>": { "command": ["prog", "--stdio"], "extensions": [".ext"], "languageId": "id" } } } or { "disabled": true }.`
}

function applyEntry(specs: ServerSpec[], name: string, entry: ServerEntry): ServerSpec[] | string {
  const others = specs.filter((spec) => spec.name !== name)
  if (entry.disabled === true) return others
  const known = specs.find((spec) => spec.name === name)
  if (known === undefined && (entry.command === undefined || entry.extensions === undefined)) {
    return 'a server dsh does not know needs "command" and "extensions".'
  }
  const languageId = entry.languageId ?? name
  const languages = entry.extensions
    ? Object.fromEntries(entry.extensions.map((ext) => [ext.toLowerCase(), languageId]))
    : (known?.languages ?? {})
  const spec: ServerSpec = {
    name,
    languages,
    rootMarkers: entry.rootMarkers ?? known?.rootMarkers ?? [],
    command: entry.command ? commandOf(entry.command) : known!.command,
    ...(entry.initializationOptions !== undefined
      ? { initializationOptions: () => entry.initializationOptions }
      : known?.initializationOptions && { initializationOptions: known.initializationOptions }),
    ...(entry.command === undefined && known?.tsserver && { tsserver: true }),
    ...(known?.env && { env: known.env }),
  }
  // A configured server comes first, so it wins over a built-in one for the same extensions.
  return [spec, ...others]
}

function commandOf(argv: readonly string[]): ServerSpec['command'] {
  return () => {
    const [program = '', ...args] = argv
    const found = findProgram(program, [])
    return found === undefined ? { missing: `${program} was not found` } : [found, ...args]
  }
}
