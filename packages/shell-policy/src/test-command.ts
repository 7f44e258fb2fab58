// `[[ … ]]` as a reader: it only compares and tests files when every word in it is literal,
// it looks no variable up (`-v`, `-R` evaluate an array subscript, and with it any `$(…)` in
// it), and its numeric comparisons (`-eq`, `-lt`, …) compare plain integers (bash evaluates
// their operands as arithmetic, subscripts and all). Pure.
import type { BashNode } from './parse'
import { ARITHMETIC_TEST_OPERATORS, EVALUATING_TEST_OPERATORS, isPlainInteger } from './read-only'
import { literalWord } from './words'

/** Node types that only hold other parts of the test. */
const STRUCTURE = new Set([
  'test_command',
  'binary_expression',
  'unary_expression',
  'parenthesized_expression',
  'negated_expression',
])
/** The right side of `=~`: a regular expression, passed as it is unless it expands. */
const PATTERNS = new Set(['regex', 'extglob_pattern'])

export function isTestLiteral(node: BashNode): boolean {
  if (node.type === 'test_operator') return !EVALUATING_TEST_OPERATORS.has(node.text)
  if (PATTERNS.has(node.type)) return !/[$`]/.test(node.text)
  if (!STRUCTURE.has(node.type)) return literalWord(node) !== undefined
  const operator = node.children.find(
    (child) => child !== null && (child.type === 'test_operator' || !child.isNamed),
  )?.text
  if (node.type === 'binary_expression' && operator !== undefined) {
    if (ARITHMETIC_TEST_OPERATORS.has(operator)) {
      const operands = node.namedChildren.filter((child) => child?.type !== 'test_operator')
      const plain = operands.every((child) => {
        const word = child ? literalWord(child) : undefined
        return word !== undefined && isPlainInteger(word.text)
      })
      if (!plain) return false
    }
  }
  return node.namedChildren.every((child) => child !== null && isTestLiteral(child))
}
