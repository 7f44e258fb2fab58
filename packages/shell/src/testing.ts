// The `./testing` face of the shell seam: the contract suite every provider runs, and the
// /proc reading it checks process groups with. Imports vitest; never load it in product code.
export { runShellContract } from './contract/index'
export type { ShellContractFactory, ShellContractFixture } from './contract/index'
export { groupMembers } from './contract/os'
