// The short list of programs a command may run unasked, each with the options known to be
// safe for it (they only read, or only change what is printed) and what its operands are:
// files it reads (judged against the session's roots like the `read` tool's paths), text, or a
// pattern and then files. An option not listed here makes the command asked: `sort -o`, `file
// -C`, `rg --pre`, `tail -f` (which never ends), `file -z` (runs decompressors), `grep -D`
// (`-D read` opens the FIFOs a recursive grep skips), and every option that follows the links
// met in a folder (`grep -R`, `rg -L/--follow`, `ls -L`): their targets are reads nobody
// judged (a link named as an operand is judged by where it leads). `known` lists every long
// option of the GNU programs (coreutils 9, grep 3), so abbreviations are read as the program
// reads them. Data.
import type { OptionTable } from './options'
import { names } from './options'

export interface ProgramRule extends OptionTable {
  /**
   * What the operands are: `files` it reads, `text` (printed or compared, never opened), or
   * `pattern` then files (unless a pattern came by option: `-e`, `-f`, `--files`).
   */
  operands: 'files' | 'text' | 'pattern'
  /** The most operands it takes before one of them becomes a file it writes (`uniq in out`). */
  maxOperands?: number
  /** Options that mean no pattern operand follows. */
  patternOptions?: readonly string[]
}

const HEAD_TAIL: ProgramRule = {
  operands: 'files',
  flags: 'qvz',
  valued: 'nc',
  long: ['quiet', 'silent', 'verbose', 'zero-terminated'],
  longValued: ['lines', 'bytes'],
  numeric: true,
}

export const PROGRAMS: Readonly<Record<string, ProgramRule>> = {
  ls: {
    operands: 'files',
    flags: 'aAbBcCdDfFgGhHiklmnNopqQrRsStuUvxXZ1',
    valued: 'wIT',
    long: names(
      `all almost-all author directory dereference-command-line escape file-type full-time group-directories-first hide-control-chars human-readable ignore-backups inode kibibytes literal no-group numeric-uid-gid quote-name recursive reverse show-control-chars si size context zero`,
    ),
    longOptional: ['color', 'classify'],
    longValued: names(
      `block-size format hide ignore indicator-style quoting-style sort tabsize time time-style width`,
    ),
    known: names(
      `all almost-all author block-size classify color context dereference dereference-command-line dereference-command-line-symlink-to-dir directory dired escape file-type format full-time group-directories-first help hide hide-control-chars human-readable hyperlink ignore ignore-backups indicator-style inode kibibytes literal no-group numeric-uid-gid quote-name quoting-style recursive reverse show-control-chars si size sort tabsize time time-style version width zero`,
    ),
  },
  pwd: { operands: 'text', flags: 'LP', maxOperands: 0 },
  cat: {
    operands: 'files',
    flags: 'AbeEnstTuv',
    long: names(
      `number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank`,
    ),
    known: names(
      `help number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank version`,
    ),
  },
  head: {
    ...HEAD_TAIL,
    known: names(`bytes help lines quiet silent verbose version zero-terminated`),
  },
  tail: {
    ...HEAD_TAIL,
    known: names(
      `bytes follow help lines max-unchanged-stats pid quiet retry silent sleep-interval verbose version zero-terminated`,
    ),
  },
  wc: {
    operands: 'files',
    flags: 'clLmw',
    long: ['bytes', 'chars', 'lines', 'max-line-length', 'words'],
    longValued: ['total'],
    known: names(`bytes chars files0-from help lines max-line-length total version words`),
  },
  file: {
    operands: 'files',
    flags: 'bEhiklLNrsS0',
    valued: 'eF',
    long: names(
      `brief dereference no-dereference keep-going mime mime-type mime-encoding no-pad raw special-files print0 extension`,
    ),
    longValued: ['exclude', 'separator'],
    known: names(
      `apple brief checking-printout compile debug dereference exclude exclude-quiet extension files-from help keep-going list magic-file mime mime-encoding mime-type no-buffer no-dereference no-pad no-sandbox parameter preserve-date print0 raw separator special-files uncompress uncompress-noreport version`,
    ),
  },
  stat: {
    operands: 'files',
    flags: 'Lft',
    valued: 'c',
    long: ['dereference', 'file-system', 'terse'],
    longValued: ['format', 'printf', 'cached'],
    known: names(`cached dereference file-system format help printf terse version`),
  },
  which: { operands: 'text', flags: 'as' },
  basename: {
    operands: 'text',
    flags: 'az',
    valued: 's',
    long: ['multiple', 'zero'],
    longValued: ['suffix'],
    known: ['help', 'multiple', 'suffix', 'version', 'zero'],
  },
  dirname: { operands: 'text', flags: 'z', long: ['zero'], known: ['help', 'version', 'zero'] },
  true: { operands: 'text' },
  false: { operands: 'text' },
  grep: {
    operands: 'pattern',
    flags: 'iyvwxclLoqsbHhnTZzaIrEFGPU',
    valued: 'efmABCd',
    long: names(
      `basic-regexp byte-offset count extended-regexp files-with-matches files-without-match fixed-strings ignore-case initial-tab invert-match line-buffered line-number line-regexp no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive silent text with-filename word-regexp binary`,
    ),
    longValued: names(
      `after-context before-context binary-files context directories exclude exclude-dir exclude-from file group-separator include label max-count regexp`,
    ),
    known: names(
      `after-context basic-regexp before-context binary binary-files byte-offset color colour context count dereference-recursive devices directories exclude exclude-dir exclude-from extended-regexp file files-with-matches files-without-match fixed-strings group-separator help ignore-case include initial-tab invert-match label line-buffered line-number line-regexp max-count no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive regexp silent text version with-filename word-regexp`,
    ),
    longOptional: ['color', 'colour'],
    pathValued: ['-f', '--file', '--exclude-from'],
    patternOptions: ['-e', '-f', '--regexp', '--file'],
    numeric: true,
  },
  // ripgrep takes long options exactly (no abbreviations). Left out: --pre and --pre-glob (run
  // a program on each file), -z/--search-zip (runs decompressors), --hostname-bin (runs a
  // program), --ignore-file and --no-config's opposite (read settings from elsewhere).
  rg: {
    operands: 'pattern',
    flags: 'iSsnNlcvwxFHoqUPa0Ibp.u',
    valued: 'efgtTABCmdMrjE',
    long: names(
      `ignore-case smart-case case-sensitive line-number no-line-number files-with-matches files-without-match count count-matches invert-match word-regexp line-regexp fixed-strings with-filename no-filename only-matching quiet hidden no-ignore no-ignore-vcs no-ignore-parent no-ignore-dot no-ignore-global no-ignore-exclude multiline multiline-dotall pcre2 json no-heading heading vimgrep column no-column files type-list null text trim stats byte-offset passthru no-messages unrestricted crlf null-data one-file-system no-config pretty binary no-unicode glob-case-insensitive sort-files`,
    ),
    longValued: names(
      `regexp file glob iglob type type-not after-context before-context context max-count max-depth max-filesize color sort sortr replace threads encoding engine max-columns path-separator context-separator field-match-separator field-context-separator colors`,
    ),
    pathValued: ['-f', '--file'],
    patternOptions: names(`-e -f --regexp --file --files --type-list`),
  },
  sort: {
    operands: 'files',
    flags: 'bdfgiMhnRrVcCmsuz',
    valued: 'kt',
    long: names(
      `ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort reverse version-sort merge stable unique zero-terminated debug`,
    ),
    longValued: ['key', 'field-separator', 'sort', 'check'],
    known: names(
      `batch-size buffer-size check compress-program debug dictionary-order field-separator files0-from general-numeric-sort help human-numeric-sort ignore-case ignore-leading-blanks ignore-nonprinting key merge month-sort numeric-sort output parallel random-sort random-source reverse sort stable temporary-directory unique version version-sort zero-terminated`,
    ),
  },
  uniq: {
    operands: 'files',
    maxOperands: 1,
    flags: 'cdDuiz',
    valued: 'fsw',
    long: ['count', 'repeated', 'unique', 'ignore-case', 'zero-terminated'],
    longValued: ['skip-fields', 'skip-chars', 'check-chars', 'all-repeated', 'group'],
    known: names(
      `all-repeated check-chars count group help ignore-case repeated skip-chars skip-fields unique version zero-terminated`,
    ),
  },
  cut: {
    operands: 'files',
    flags: 'nsz',
    valued: 'bcfd',
    long: ['complement', 'only-delimited', 'zero-terminated'],
    longValued: ['bytes', 'characters', 'fields', 'delimiter', 'output-delimiter'],
    known: names(
      `bytes characters complement delimiter fields help only-delimited output-delimiter version zero-terminated`,
    ),
  },
  tr: {
    operands: 'text',
    maxOperands: 2,
    flags: 'cCdst',
    long: ['complement', 'delete', 'squeeze-repeats', 'truncate-set1'],
    known: names(`complement delete help squeeze-repeats truncate-set1 version`),
  },
}
