// A Markdown file's front matter: the YAML between a first line `---` and the next `---`, and
// the body after it. Cordis-free, no I/O. The YAML parser loads with the first front matter
// read, not with the plugin: most projects have none.
type ParseYaml = (typeof import('yaml'))['parse']

let yamlParse: Promise<ParseYaml> | undefined

export type FrontMatter =
  | { ok: true; fields: Record<string, unknown> | undefined; body: string }
  | { ok: false; problem: string }

/** The fields (`undefined` when the file has no front matter) and the body; or what is wrong. */
export async function splitFrontMatter(text: string): Promise<FrontMatter> {
  const source = text.replace(/^\uFEFF/, '')
  const open = /^---[ \t]*\r?\n/.exec(source)
  if (open === null) return { ok: true, fields: undefined, body: source }
  const rest = source.slice(open[0].length)
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest)
  if (close === null) {
    return { ok: false, problem: 'its front matter opens with "---" but no line "---" closes it' }
  }
  const yaml = rest.slice(0, close.index)
  const body = rest.slice(close.index + close[0].length)
  let fields: unknown
  try {
    fields = yaml.trim() === '' ? {} : (await loadYaml())(yaml)
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { ok: false, problem: `its front matter is not valid YAML (${why})` }
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return { ok: false, problem: 'its front matter is not a map of fields (name: value)' }
  }
  return { ok: true, fields: fields as Record<string, unknown>, body }
}

function loadYaml(): Promise<ParseYaml> {
  yamlParse ??= import('yaml').then((yaml) => yaml.parse)
  return yamlParse
}
