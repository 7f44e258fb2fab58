// Data shared by several benchmarks of one run (the big text file of read and continue),
// created on first use in one temp directory and removed by `cleanup()`.
import { tempDir, writeTextFile } from './data.mjs'
import { timeCommand } from './child.mjs'
import { mib } from './stats.mjs'

export function createFixtures({ quick }) {
  let temp
  let bigText
  return {
    /** The read benchmarks' text file: 1 GiB (quick: 64 MiB), page cache warmed. */
    bigText() {
      if (bigText) return bigText
      temp ??= tempDir('shared')
      const bytes = (quick ? 64 : 1024) * 2 ** 20
      process.stdout.write(`  generating a ${mib(bytes)} text file… `)
      bigText = writeTextFile(`${temp.dir}/big.txt`, bytes)
      const counted = Number(timeCommand('wc', ['-l', bigText.path]).stdout.trim().split(/\s+/)[0])
      if (counted !== bigText.lines)
        throw new Error(`wc counts ${counted}, expected ${bigText.lines}`)
      process.stdout.write(`${bigText.lines} lines\n`)
      return bigText
    },
    cleanup() {
      temp?.remove()
    },
  }
}
