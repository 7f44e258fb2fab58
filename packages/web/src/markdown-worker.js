// HTML into Markdown for a model to read, run in a worker thread (./markdown.ts starts it with
// the page in `workerData` and takes one message back). One pass over htmlparser2's events:
// time and memory grow with the page, never with its square, and nesting is capped (lists and
// quotes indent at most a few levels), so no page makes a line longer than its own text.
// Headings, paragraphs, links (resolved against the page's URL), emphasis, code, lists, quotes
// and GitHub-style tables are kept; scripts, styles, the head, SVG and forms' widgets go. The
// first `<title>` is taken apart. Plain JavaScript on purpose: Node runs it as it is, from the
// sources (tests) and from the build, where it is bundled beside the app.
import { parentPort, workerData } from 'node:worker_threads'
import { Parser } from 'htmlparser2'

const SKIPPED = new Set([
  'script',
  'style',
  'head',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'textarea',
  'button',
])
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'body',
  'caption',
  'details',
  'dialog',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'main',
  'nav',
  'p',
  'section',
  'summary',
])
const HEADINGS = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }
const MAX_NESTING = 6

/** Where the Markdown is written: lines with their prefixes, or the current table cell. */
class Writer {
  constructor(base) {
    this.base = base
    this.parts = []
    this.need = 0 // line breaks owed before the next text
    this.started = false
    this.lineStart = true
    this.space = true // the last character written was a space or a line start
    this.marker = ''
    this.lists = []
    this.quotes = 0
    this.pre = 0
    this.links = []
    this.table = undefined
    this.tables = 0
  }

  block(breaks) {
    if (this.table !== undefined && this.table.cell !== undefined) this.cellText(' ')
    else this.need = Math.max(this.need, breaks)
  }

  quotePrefix() {
    return '> '.repeat(Math.min(this.quotes, MAX_NESTING))
  }

  write(text) {
    if (text === '') return
    if (this.table !== undefined && this.table.cell !== undefined) return this.cellText(text)
    if (this.need > 0 && this.started) {
      this.parts.push('\n'.repeat(this.need))
      this.lineStart = true
    }
    this.need = 0
    if (this.lineStart) {
      const depth = Math.min(this.lists.length - (this.marker === '' ? 0 : 1), MAX_NESTING)
      this.parts.push(this.quotePrefix(), '  '.repeat(Math.max(depth, 0)), this.marker)
      this.marker = ''
      this.lineStart = false
    }
    this.parts.push(text)
    this.started = true
    this.space = text.endsWith(' ')
  }

  cellText(text) {
    const cell = this.table.cell
    if (text === ' ' && (cell === '' || cell.endsWith(' '))) return
    this.table.cell = cell + text
  }

  text(raw) {
    if (this.pre > 0) {
      const lines = raw.split('\n')
      lines.forEach((line, index) => {
        if (index > 0) {
          this.parts.push('\n')
          this.lineStart = true
        }
        this.write(line)
      })
      return
    }
    let text = raw.replace(/\s+/g, ' ')
    const atStart =
      this.table !== undefined && this.table.cell !== undefined
        ? this.table.cell === '' || this.table.cell.endsWith(' ')
        : this.need > 0 || this.lineStart || this.space
    if (atStart) text = text.trimStart()
    if (this.table !== undefined && this.table.cell !== undefined) text = text.replace(/\|/g, '\\|')
    this.write(text)
  }

  href(value) {
    if (value === undefined || value === '' || /^\s*(javascript|data|vbscript):/i.test(value)) {
      return undefined
    }
    try {
      return new URL(value, this.base).href
    } catch {
      return value
    }
  }

  row() {
    const table = this.table
    if (table.row === undefined || table.row.length === 0) return
    const cells = table.row
    table.row = undefined
    this.need = Math.max(this.need, 1)
    this.write(`| ${cells.join(' | ')} |`)
    if (table.rows++ === 0) this.line(`| ${cells.map(() => '---').join(' | ')} |`)
  }

  line(text) {
    this.need = Math.max(this.need, 1)
    this.write(text)
  }

  markdown() {
    return this.parts.join('').trim()
  }
}

/** Table, list and inline tags: what each does as it opens (`true`) and as it closes. */
function element(w, name, attributes, opening) {
  if (name in HEADINGS) {
    w.block(2)
    if (opening) w.marker = `${'#'.repeat(HEADINGS[name])} `
    else w.marker = ''
  } else if (name === 'ul' || name === 'ol') {
    if (opening) {
      const start = Number.parseInt(attributes.start ?? '1', 10)
      w.lists.push({ ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 })
    } else w.lists.pop()
    w.block(w.lists.length > (opening ? 1 : 0) ? 1 : 2)
  } else if (name === 'li') {
    w.block(1)
    const list = w.lists[w.lists.length - 1]
    if (opening) w.marker = list?.ordered ? `${list.next++}. ` : '- '
    else w.marker = ''
  } else if (name === 'blockquote') {
    w.block(2)
    w.quotes += opening ? 1 : -1
  } else if (name === 'pre') {
    w.block(opening ? 2 : 1)
    w.write('```')
    w.pre += opening ? 1 : -1
    w.block(opening ? 1 : 2)
  } else if (name === 'table') table(w, opening)
  else if (name === 'tr' && w.tables === 1) {
    if (opening) w.table.row = []
    else w.row()
  } else if ((name === 'td' || name === 'th') && w.tables === 1) cell(w, opening)
  else if (name === 'a') {
    if (opening) {
      const href = w.href(attributes.href)
      w.links.push(href)
      if (href !== undefined) w.write('[')
    } else {
      const href = w.links.pop()
      if (href !== undefined) w.write(`](${href})`)
    }
  } else if (name === 'strong' || name === 'b') w.write('**')
  else if (name === 'em' || name === 'i') w.write('_')
  else if (name === 'code' && w.pre === 0) w.write('`')
  else if (opening && name === 'br') {
    if (w.pre > 0) w.text('\n')
    else w.block(1)
  } else if (opening && name === 'hr') {
    w.block(2)
    w.write('---')
    w.block(2)
  } else if (opening && name === 'img') {
    const alt = (attributes.alt ?? '').replace(/\s+/g, ' ').trim()
    const src = w.href(attributes.src)
    if (src !== undefined) w.write(`![${alt}](${src})`)
    else if (alt !== '') w.write(alt)
  } else if (BLOCKS.has(name) || name === 'tr' || name === 'td' || name === 'th') w.block(2)
}

function table(w, opening) {
  w.tables += opening ? 1 : -1
  if (w.tables > 1 || (w.tables === 1 && !opening)) return w.block(1)
  if (opening) {
    w.block(2)
    w.table = { rows: 0, row: undefined, cell: undefined }
  } else {
    if (w.table.row !== undefined) w.row()
    w.table = undefined
    w.block(2)
  }
}

function cell(w, opening) {
  const t = w.table
  if (opening) {
    t.row ??= []
    t.cell = ''
  } else if (t.cell !== undefined) {
    t.row.push(t.cell.trim())
    t.cell = undefined
  }
}

function convert(html, base) {
  const w = new Writer(base)
  let skipped = 0
  let title
  let inTitle = false
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title' && title === undefined && skipped <= 1) inTitle = true
        if (SKIPPED.has(name) || skipped > 0) return void skipped++
        element(w, name, attributes, true)
      },
      ontext(text) {
        if (inTitle) title = (title ?? '') + text
        else if (skipped === 0) w.text(text)
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        if (skipped > 0) return void skipped--
        element(w, name, {}, false)
      },
    },
    { decodeEntities: true },
  )
  parser.end(html)
  const name = title?.replace(/\s+/g, ' ').trim()
  return { markdown: w.markdown(), ...(name ? { title: name } : {}) }
}

parentPort?.postMessage(convert(workerData.html, workerData.base))
