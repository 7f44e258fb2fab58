// The `./testing` face of the fs seam: the contract suite every provider runs, and the
// in-memory provider for tests of code above the seam, and a seeded random generator. Imports vitest; never load it in
// product code.
export { runFileSystemContract } from './contract/index'
export type { FileSystemContractFactory, FileSystemContractFixture } from './contract/index'
export { MemoryFileSystem } from './memory'
export type { MemoryFileSystemConfig } from './memory'
export { seededRandom } from './random'
