// Whether an editor answers ranged reads as ACP says. `line`/`limit` on fs/read_text_file are
// optional for a client, and clients differ: Zed answers the text from the start of the 1-based
// line, others ignore the range (the whole buffer comes back) or count lines from 0. A window
// taken for the wrong lines would show the model text under the wrong line numbers, so a
// client's ranged answers are trusted only once one was seen to match the same lines of its
// whole buffer, read right after. Until then each ranged read is checked so (two reads); a
// client whose answer did not match is read whole from then on, as before ranges. Only a
// check that could tell (a range that is not the whole buffer) decides.
import type { FsLineRange } from '@deepseek-ai/dsh-fs'
import type { AcpFsClient } from './client'
import { splitBom } from './editor-text'
import { splitLines } from './editor-lines'

export class EditorRanges {
  private readonly honours = new WeakMap<AcpFsClient, boolean>()

  /** True: its ranged answers are trusted; false: it is read whole; undefined: not known yet. */
  trusted(client: AcpFsClient): boolean | undefined {
    return this.honours.get(client)
  }

  /**
   * Judges `client` by its ranged answer to `range` and its whole buffer `whole`, read right
   * after: a mismatch distrusts it for good (it may also be the person typing in between,
   * which costs only the ranged reads); a match trusts it when the range was not the whole
   * buffer, so that an answer ignoring the range would have shown.
   */
  judge(client: AcpFsClient, range: FsLineRange, ranged: string, whole: string): void {
    const all = splitLines(splitBom(whole).text)
    const expected = all.slice(range.line - 1, range.line - 1 + range.limit)
    const answered = splitLines(range.line === 1 ? splitBom(ranged).text : ranged)
    const same =
      answered.length === expected.length && answered.every((line, i) => line === expected[i])
    if (!same) this.honours.set(client, false)
    else if (expected.length < all.length) this.honours.set(client, true)
  }
}
