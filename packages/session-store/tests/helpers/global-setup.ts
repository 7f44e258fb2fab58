// Bundles the child driver once for every test file that spawns it (locks, crash loop), and
// hands its path over as `inject('driver')`.
import { rm } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { bundleDriver } from './child/bundle'

declare module 'vitest' {
  export interface ProvidedContext {
    driver: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { script, directory } = await bundleDriver()
  project.provide('driver', script)
  return () => rm(directory, { recursive: true, force: true })
}
