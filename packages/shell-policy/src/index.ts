// shell-policy: the command classifier, the pure policy that says which bash commands run
// unasked. A command line is parsed by bash's grammar and split into its parts; each part is
// read-only (a listed program, its safe options, literal words; with the files it reads) or
// not (with what "always allow" would remember of it). No Cordis and no I/O but the parser's
// one-time load: what the disk has to say (FIFOs, PATH inside the roots, another repository)
// is tool-shell's, which imports this. The rules and their reasons: ../classifier.md.
export { classifyCommand, isReadOnly } from './classify'
export type { CommandClass, CommandPart, GitPart } from './classify'
export type { CommandAllow } from './allow-key'
