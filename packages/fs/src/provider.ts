// The `./provider` face of the fs seam: the rules every provider shares, so all of them read,
// match and fail the same way — the text rule (UTF-8, no NUL, the BOM), the edit planner and
// the edited file as byte pieces, the shared failures with their neutral wording, and the
// per-file lock that serialises a provider's mutations.
// For provider authors (and callers that preview an edit the way a provider would make it);
// a user of ctx.fs needs only the main face.
export { decodeText, encodeText, hasUtf8Bom, TextChunkDecoder } from './text'
export { checkEditRequest, planTextEdit } from './edit'
export type { TextEditPlan, TextMatch } from './edit'
export { editedBytePieces } from './edit-bytes'
export { KeyedMutex } from './mutex'
export {
  ambiguousEditError,
  editNotFoundError,
  invalidEditError,
  notFoundError,
  notObservedError,
  notRegularFileError,
  notTextError,
  parentNotDirectoryError,
  partlyObservedError,
  pathChangedError,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
} from './failures'
