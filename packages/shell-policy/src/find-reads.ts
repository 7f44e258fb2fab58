// `find` as a reader: its starting points (the files it reads) and an expression made only of
// tests and printing actions. Actions that run a program (`-exec`, `-execdir`, `-ok`, `-okdir`),
// delete (`-delete`) or write a file (`-fprint`, `-fprint0`, `-fprintf`, `-fls`) are not on the
// list, nor is anything else unknown, so they are asked; so are `-L` and `-follow`, which
// follow the links met below a starting point (reads of their targets nobody judged). Pure.
import { pathOf } from './words'
import type { LiteralWord } from './words'
import { names } from './options'

/** Global options before the starting points. */
const LEADING = new Set(['-H', '-P'])
/** Tests, operators and actions that take no argument. */
const NULLARY = new Set(
  names(
    `( ) ! , -not -a -and -o -or -true -false -print -print0 -prune -quit -ls -empty -readable -writable -executable -nouser -nogroup -depth -xdev -mount -daystart -noleaf -ignore_readdir_race -noignore_readdir_race`,
  ),
)
/** Tests and actions that take one argument. */
const UNARY = new Set(
  names(
    `-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex -regextype -type -xtype -maxdepth -mindepth -size -mtime -mmin -atime -amin -ctime -cmin -used -perm -user -group -uid -gid -links -inum -fstype -printf -newer -anewer -cnewer -samefile`,
  ),
)
/** Of those, the ones whose argument is a file find reads. */
const FILE_ARGUMENT = new Set(['-newer', '-anewer', '-cnewer', '-samefile'])

export function findReads(words: readonly LiteralWord[]): string[] | undefined {
  let i = 0
  while (i < words.length && LEADING.has((words[i] as LiteralWord).text)) i++
  const files: string[] = []
  for (; i < words.length; i++) {
    const word = words[i] as LiteralWord
    if (word.text.startsWith('-') || NULLARY.has(word.text)) break
    if (word.glob === 0) return undefined
    files.push(pathOf(word))
  }
  for (; i < words.length; i++) {
    // An unquoted glob here may become several words, an action among them.
    const { text: word, glob } = words[i] as LiteralWord
    if (glob >= 0) return undefined
    if (NULLARY.has(word)) continue
    if (!UNARY.has(word)) return undefined
    const argument = words[++i]
    if (argument === undefined || argument.glob >= 0) return undefined
    if (FILE_ARGUMENT.has(word)) files.push(argument.text)
  }
  return files
}
