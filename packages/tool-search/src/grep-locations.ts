// Where a finished grep card points: the matched lines it showed, in result order, up to
// MAX_LINE_LOCATIONS; past that, each further file once (at its first match shown), up to
// MAX_LOCATIONS more. Lists of files and counts carry no lines, so each file is given once
// with the line of its first match (ripgrep asked again with `-m 1`). Never a directory.
import { isAbsolute, resolve } from 'node:path'
import type { ToolExecution, ToolLocation } from '@deepseek-ai/dsh-tools'
import { grepFlags } from './grep-input'
import type { GrepArgs } from './grep-input'
import { MAX_LINE_LOCATIONS, MAX_LOCATIONS } from './present'
import { LineParser } from './records'
import type { SearchRoot } from './roots'
import { search } from './search'
import type { SearchOptions } from './search'

export class GrepLocations {
  /** The locations so far, in result order (paths as ripgrep printed them). */
  private readonly entries: { path: string; line?: number }[] = []
  /** The entry of each file listed once (files and counts), to fill in its line. */
  private readonly listed = new Map<string, { path: string; line?: number }>()
  private readonly files = new Set<string>()
  private matchedLines = 0
  private extraFiles = 0

  constructor(private readonly root: SearchRoot) {}

  /** A result line shown of `path`: a matched line (`match`) or a file of a list (`line` none). */
  noteLine(path: string, line: number | undefined, match: boolean): void {
    if (line === undefined) return this.noteFile(path)
    if (!match) return
    if (this.matchedLines < MAX_LINE_LOCATIONS) {
      this.matchedLines += 1
      this.files.add(path)
      this.entries.push({ path, line })
      return
    }
    if (this.files.has(path) || this.extraFiles >= MAX_LOCATIONS) return
    this.extraFiles += 1
    this.files.add(path)
    this.entries.push({ path, line })
  }

  private noteFile(path: string): void {
    if (this.files.has(path) || this.files.size >= MAX_LOCATIONS) return
    this.files.add(path)
    const entry = { path }
    this.entries.push(entry)
    this.listed.set(path, entry)
  }

  /** Files and counts carry no lines: ripgrep finds each listed file's first match (`-m 1`). */
  async findLines(options: SearchOptions, args: GrepArgs, exec: ToolExecution): Promise<void> {
    const paths = [...this.listed.keys()]
    if (paths.length === 0) return
    const flags = [
      ...grepFlags({ ...args, output_mode: 'content', context: 0 }),
      '--max-count',
      '1',
    ]
    const parser = new LineParser((record) => {
      const entry = this.listed.get(record.path)
      if (record.match && entry !== undefined && entry.line === undefined) entry.line = record.line
      return true
    })
    const root = { ...this.root, arg: undefined }
    await search(options, root, [...flags, '--', ...paths], (chunk) => parser.push(chunk), exec)
  }

  located(): ToolLocation[] {
    return this.entries.map(({ path, line }) => {
      const absolute = isAbsolute(path) ? path : resolve(this.root.cwd, path)
      return line === undefined ? { path: absolute } : { path: absolute, line }
    })
  }
}
