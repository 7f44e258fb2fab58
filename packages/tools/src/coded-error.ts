// One error shape for every package, after the ACP SDK's RequestError: a class with a `code`
// and, where a package needs them, named static factories. A package declares its codes and
// extends `codedError(name, codes)`: its errors carry the name the registry reports with a
// failed call (`error: { name, code }`), a `code` typed to those codes and `cause` when one is
// given; a package whose errors carry more facts (a path, an HTTP status) adds those fields.
// `guardOf` makes the package's `isXError(value, code?)`. This module imports nothing, so the
// seams beside the registry (fs, llm, shell, web) take it from
// `@deepseek-ai/dsh-tools/coded-error` without loading Cordis.

export interface CodedErrorOptions {
  cause?: unknown
}

/** What every coded error is: an Error with a name of its package's and one of its codes. */
export interface CodedError<Code extends string = string> extends Error {
  readonly code: Code
}

/** The class `codedError` returns, for a package's own class to extend. */
export interface CodedErrorClass<Code extends string> {
  new (code: Code, message: string, options?: CodedErrorOptions): CodedError<Code>
  /** Every code of the package, in its order. */
  readonly codes: readonly Code[]
}

/** The base class of a package's errors: `class FsError extends codedError('FsError', FS_ERROR_CODES) {}`. */
export function codedError<const Codes extends readonly string[]>(
  errorName: string,
  codes: Codes,
): CodedErrorClass<Codes[number]> {
  class Coded extends Error {
    static readonly codes = codes
    override readonly name = errorName
    readonly code: Codes[number]

    constructor(code: Codes[number], message: string, options?: CodedErrorOptions) {
      super(message, options?.cause === undefined ? undefined : { cause: options.cause })
      this.code = code
    }
  }
  Object.defineProperty(Coded, 'name', { value: errorName })
  return Coded
}

/** True for an error of `errorClass` (of `code`, when given). */
export type CodedErrorGuard<E extends CodedError> = (value: unknown, code?: E['code']) => value is E

/** The guard of a package's errors: `export const isFsError = guardOf(FsError)`. */
export function guardOf<E extends CodedError>(
  errorClass: abstract new (...args: never[]) => E,
): CodedErrorGuard<E> {
  return (value: unknown, code?: E['code']): value is E =>
    value instanceof errorClass && (code === undefined || value.code === code)
}
