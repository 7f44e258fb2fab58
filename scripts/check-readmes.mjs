// Checks that the docs name each package's dependencies as its package.json has them: every
// package README has one "Depends on …." sentence listing its runtime dependencies in
// backticks (workspace packages by folder name), and the root README's "Dependencies point
// one way" list gives each package's workspace dependencies. Run by `npm run lint`.
import { existsSync, readFileSync, readdirSync } from 'node:fs'

const root = new URL('../', import.meta.url)
const SCOPE = '@deepseek-ai/dsh-'
const folders = readdirSync(new URL('packages/', root), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const read = (path) => readFileSync(new URL(path, root), 'utf8')
const names = (text) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1])
const sorted = (list) => [...new Set(list)].sort()
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))

const problems = []
const workspaceDeps = new Map()
for (const folder of folders) {
  const pkg = JSON.parse(read(`packages/${folder}/package.json`))
  const deps = Object.keys(pkg.dependencies ?? {})
  const documented = deps.map((dep) => (dep.startsWith(SCOPE) ? dep.slice(SCOPE.length) : dep))
  workspaceDeps.set(
    folder,
    deps.filter((dep) => dep.startsWith(SCOPE)).map((dep) => dep.slice(SCOPE.length)),
  )
  if (!existsSync(new URL(`packages/${folder}/README.md`, root))) {
    problems.push(`packages/${folder} has no README.md`)
    continue
  }
  const readme = read(`packages/${folder}/README.md`).replace(/\s+/g, ' ')
  const sentences = readme.match(/Depends on (?:[^.`]|`[^`]*`)*\./g) ?? []
  if (sentences.length !== 1) {
    problems.push(
      `packages/${folder}/README.md: ${sentences.length} "Depends on …." sentences, want 1`,
    )
  } else if (!same(names(sentences[0]), documented)) {
    problems.push(
      `packages/${folder}/README.md says ${JSON.stringify(sorted(names(sentences[0])))}, ` +
        `package.json has ${JSON.stringify(sorted(documented))}`,
    )
  }
}

const rootReadme = read('README.md').replace(/\s+/g, ' ')
const graph = /Dependencies point one way: ([^.]*)\./.exec(rootReadme)?.[1] ?? ''
const edges = new Map()
for (const part of graph.split(';')) {
  const match = /`([^`]+) → ([^`]+)`/.exec(part)
  if (match)
    edges.set(
      match[1],
      match[2].split(',').map((name) => name.trim()),
    )
}
for (const [folder, deps] of workspaceDeps) {
  if (deps.length === 0 && !edges.has(folder)) continue
  if (!same(edges.get(folder) ?? [], deps)) {
    problems.push(
      `README.md says ${folder} → ${JSON.stringify(edges.get(folder) ?? [])}, ` +
        `packages/${folder}/package.json has ${JSON.stringify(sorted(deps))}`,
    )
  }
}

if (problems.length > 0) {
  console.error(`The READMEs and the package.json files disagree:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
console.log(
  `READMEs name the dependencies of all ${folders.length} packages as package.json has them.`,
)
