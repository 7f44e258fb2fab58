// Scripts the task tests share: a parent that starts a task whose delegate writes a file.

/** A task whose delegate writes note.txt (asked about in `ask`), then reports. */
export const noteTaskScript = {
  turns: [
    {
      toolCalls: [
        {
          id: 't1',
          name: 'task',
          arguments: { description: 'write a note', prompt: 'Write note.txt saying hi.' },
        },
      ],
    },
    {
      toolCalls: [
        { id: 'w1', name: 'write', arguments: { file_path: 'note.txt', content: 'hi\n' } },
      ],
    },
    { text: 'Wrote note.txt.' },
    { text: 'The delegate wrote it.' },
  ],
}
