// The system prompt's sections for the search tools: when to use glob, grep or read.
import { DEFAULT_HEAD_LIMIT } from './grep-input'
import { GLOB_MAX_LINES } from './glob'

export const globPrompt = `## Finding files (glob)
- Use glob to find files by name or path: \`**/*.ts\` (any depth), \`src/**/test_*.py\`, \`*.json\` (directly under
  \`path\` only). \`path\` is the directory to search under (default: the workspace).
- It lists files only (never directories), newest modified first, at most ${GLOB_MAX_LINES}; narrow with a longer pattern or a path.`

export const grepPrompt = `## Searching file contents (grep)
- Use grep to find where something is written: a name, a string, a regular expression (ripgrep syntax; escape
  \`( ) [ ] { } . *\` with a backslash, or set \`fixed_strings\`). Narrow with \`path\` (a file or directory) and \`glob\`
  (\`*.ts\`, \`src/**/*.{js,jsx}\`).
- \`output_mode\`: \`files_with_matches\` (default, paths only), \`content\` (\`path:line:text\`, with \`context\` lines
  around each match), \`count\` (\`path:N\`). At most ${DEFAULT_HEAD_LIMIT} result lines by default (\`head_limit\`, 0 for no line
  limit) and 30,000 characters; page with \`offset\` as the closing line says.
- glob and grep are the fast, safe way to look around: they skip what .gitignore ignores, binary files and .git/, and
  never follow a symlink out of the tree. Search first, then read the files they point to (read shows a
  window of a file; use its \`offset\` with a line number grep gave). Prefer them to listing or reading
  many files one by one.`
