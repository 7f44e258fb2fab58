// A fenced block of Markdown for presentation content (a command, its output): the fence is
// longer than any run of backticks inside, so no text can close it early. Pure.

export function fencedBlock(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length))
  const fence = '`'.repeat(longest + 1)
  const body = text.endsWith('\n') ? text : `${text}\n`
  return `${fence}${info}\n${body}${fence}`
}
