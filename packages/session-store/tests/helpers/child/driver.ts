// A child process that uses the real FileSessionStore, bundled by bundle.ts and run with
// `node`. Modes:
//   append <dir> <id>  open the session, print "ready <n>" (n = its event count), then append
//                      user messages numbered n, n+1, … forever, printing each number after
//                      its append returns (the crash loop kills it).
//   hold <dir> <id>    open the session, print "held", and keep it until stdin closes.
//   exit <dir> <id>    like hold, but exits when stdin closes without closing the session.
import { writeSync } from 'node:fs'
import { FileSessionStore } from '../../../src/index'

function print(line: string): void {
  // Straight to fd 1: the line is out before the next append starts, whatever the stream.
  writeSync(1, `${line}\n`)
}

function append(store: FileSessionStore, id: string): void {
  const { events, writer } = store.open(id)
  print(`ready ${events.length}`)
  for (let number = events.length; ; number++) {
    writer.append({ type: 'user/message', turnId: 'crash', text: String(number) })
    print(String(number))
  }
}

function hold(store: FileSessionStore, id: string, close: boolean): void {
  const { writer } = store.open(id)
  print('held')
  process.stdin.on('end', () => {
    if (close) writer.close()
    process.exit(0)
  })
  process.stdin.resume()
}

const [mode, dir, id] = process.argv.slice(2)
if (process.argv[1]?.endsWith('driver.mjs') && dir && id) {
  const store = new FileSessionStore({ dir })
  if (mode === 'append') append(store, id)
  else if (mode === 'hold' || mode === 'exit') hold(store, id, mode === 'hold')
}
