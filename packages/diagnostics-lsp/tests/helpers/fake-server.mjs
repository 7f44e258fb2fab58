// A language server that misbehaves on purpose, for the provider's tests. Its mode is the first
// argument: `mute` never answers `initialize`; `silent` answers it and then never publishes;
// `crash` answers it and exits with code 3 at the first document it is sent; `echo` publishes
// one error per line holding "BAD" after each open or change; `env` one per line holding "ENV",
// saying the VIRTUAL_ENV it runs with.
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node'

const mode = process.argv[2]
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
)
connection.onRequest('initialize', () =>
  mode === 'mute' ? new Promise(() => {}) : { capabilities: { textDocumentSync: 1 } },
)
connection.onRequest('shutdown', () => null)
connection.onNotification('exit', () => process.exit(0))
const onDocument = ({ textDocument, contentChanges }) => {
  if (mode === 'crash') {
    process.stderr.write('fake server: crashed on purpose\n')
    process.exit(3)
  }
  if (mode !== 'echo' && mode !== 'env') return
  const [word, message] =
    mode === 'env' ? ['ENV', `VIRTUAL_ENV=${process.env.VIRTUAL_ENV ?? ''}`] : ['BAD', 'BAD is bad']
  const text = textDocument.text ?? contentChanges[0].text
  const diagnostics = text.split('\n').flatMap((line, index) =>
    line.includes(word)
      ? [
          {
            range: { start: { line: index, character: 0 }, end: { line: index, character: 3 } },
            severity: 1,
            code: 'F1',
            message,
          },
        ]
      : [],
  )
  connection.sendNotification('textDocument/publishDiagnostics', {
    uri: textDocument.uri,
    diagnostics,
  })
}
connection.onNotification('textDocument/didOpen', onDocument)
connection.onNotification('textDocument/didChange', onDocument)
connection.listen()
