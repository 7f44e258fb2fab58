// Builds the bin once before this package's test files run: several files spawn the built
// bin, and builds started from each file at once would empty one another's dist folders.
import { ensureBuilt } from './build'

export default function setup(): void {
  ensureBuilt()
}
