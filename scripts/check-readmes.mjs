// Checks that the docs name each package's dependencies as its package.json has them: every
// package README has one "Depends on …." sentence listing its runtime dependencies in
// backticks (workspace packages by folder name), the root README's "Dependencies point
// one way" list gives each package's workspace dependencies, and its table of layers places
// every package once, none depending on a package of a higher layer (a later row). Run by
// `npm run lint`.
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

// The layers: each row of the table under "## Packages, by layer", lowest first.
const layerOf = new Map()
const table = /## Packages, by layer\n([\s\S]*?)\n\n/.exec(read('README.md'))?.[1] ?? ''
const rows = table
  .split('\n')
  .filter((line) => /^\| [^-|]/.test(line))
  .slice(1)
rows.forEach((row, index) => {
  for (const match of row.matchAll(/\[`([^`]+)`\]\(packages\//g)) {
    if (layerOf.has(match[1])) problems.push(`README.md's layer table names ${match[1]} twice`)
    layerOf.set(match[1], index)
  }
})
for (const [folder, deps] of workspaceDeps) {
  const layer = layerOf.get(folder)
  if (layer === undefined) {
    problems.push(`README.md's layer table does not name ${folder}`)
    continue
  }
  for (const dep of deps)
    if ((layerOf.get(dep) ?? -1) > layer)
      problems.push(`${folder} depends on ${dep}, on a higher layer in README.md's table`)
}

if (problems.length > 0) {
  console.error(`The READMEs and the package.json files disagree:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
console.log(
  `READMEs name the dependencies of all ${folders.length} packages as package.json has them, each on its layer.`,
)
