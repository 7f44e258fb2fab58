// The bash parser: tree-sitter's bash grammar (tree-sitter-bash, as WebAssembly) in
// web-tree-sitter, loaded once on first use. A command that does not parse cleanly (a tree with
// an error or a missing node) gives `undefined`: the classifier treats it as unknown.
// web-tree-sitter itself is required on first use too (its CommonJS face), not imported at the
// top: loading it takes a while, and a bundle that leaves it outside cannot import() it.
import { createRequire } from 'node:module'
import type { Node, Parser } from 'web-tree-sitter'

export type BashNode = Node

let loading: Promise<Parser> | undefined

function loadParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url)
    const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter')
    await Parser.init()
    const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'))
    const parser = new Parser()
    parser.setLanguage(bash)
    return parser
  })()
  return loading
}

/**
 * The syntax tree of `command` handed to `use`, or `undefined` when it does not parse; the tree
 * is freed after `use` returns (web-tree-sitter trees live in WebAssembly memory).
 */
export async function withBashTree<T>(
  command: string,
  use: (root: BashNode | undefined) => T,
): Promise<T> {
  const parser = await loadParser()
  const tree = parser.parse(command)
  try {
    const root = tree?.rootNode
    return use(root === undefined || root.hasError ? undefined : root)
  } finally {
    tree?.delete()
  }
}
