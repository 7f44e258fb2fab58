// runFileSystemContract: the behaviour every ctx.fs provider must have, written once as vitest
// suites. A provider's test file calls it with a factory of fresh fixtures (see fixture.ts).
import { describe } from 'vitest'
import { useFixture, type FileSystemContractFactory } from './fixture'
import { editCases } from './edit'
import { readCases } from './read'
import { resolveCases, statCases } from './resolve'
import { versionCases } from './versions'
import { serialisationCases, writeCases } from './write'

export type { FileSystemContractFactory, FileSystemContractFixture } from './fixture'

export function runFileSystemContract(label: string, makeFixture: FileSystemContractFactory): void {
  describe(`${label} file system contract`, () => {
    const fixture = useFixture(makeFixture)
    resolveCases(fixture)
    statCases(fixture)
    readCases(fixture)
    writeCases(fixture)
    editCases(fixture)
    serialisationCases(fixture)
    versionCases(fixture)
  })
}
