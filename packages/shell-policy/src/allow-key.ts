// The shape of what "always allow" remembers of a command, and how a key reads to a person.
// Data only, shared by the classifier's rules (./prefix, ./git-allow) and the access hook.

export interface CommandAllow {
  /** What is remembered (`git add`). */
  key: string
  /** What a person reads after "Always allow " (`` `git add …` ``). */
  label: string
}

/** The key of a command prefix, and its label: `` `git add …` ``. */
export function allowing(words: readonly string[]): CommandAllow {
  const key = words.join(' ')
  return { key, label: `\`${key} …\`` }
}
