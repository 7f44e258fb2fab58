// SearchError: what the glob and grep tools throw for a search that cannot run or did not
// finish. The registry turns it into an error result with `error: { name, code }`; the message
// is worded for the model (what went wrong, what to do). Codes are listed here and in the README.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const SEARCH_ERROR_CODES = [
  /** No ripgrep binary: neither the platform package of @vscode/ripgrep nor `rg` on PATH. */
  'SEARCH_NO_RIPGREP',
  /** The search root does not exist. */
  'SEARCH_NOT_FOUND',
  /** The root is not a directory (glob) or not a file or directory (grep). */
  'SEARCH_NOT_SEARCHABLE',
  /** ripgrep refused the pattern or the glob; the message is ripgrep's own explanation. */
  'SEARCH_INVALID_PATTERN',
  /** The search ran past its time limit and was stopped. */
  'SEARCH_TIMEOUT',
  /** ripgrep failed for another reason (its message is kept). */
  'SEARCH_FAILED',
] as const

export type SearchErrorCode = (typeof SEARCH_ERROR_CODES)[number]

export class SearchError extends codedError('SearchError', SEARCH_ERROR_CODES) {}

/** True for a SearchError (of `code`, when given). */
export const isSearchError = guardOf(SearchError)
