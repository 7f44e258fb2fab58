// The ACP registry's rules for an agent's entry (github.com/agentclientprotocol/registry:
// FORMAT.md, agent.schema.json, and the checks of its build script as of 2026), written as
// checks that name each broken rule: the entry's fields and distributions, versions pinned and
// equal to the entry's, and the icon (16×16, square, monochrome through currentColor).

const PLATFORMS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
]
const OS_FAMILIES = ['darwin', 'linux', 'windows']
const PAINTS = new Set(['currentcolor', 'none', 'inherit'])

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isStrings = (value: unknown) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
const isStringMap = (value: unknown) =>
  isObject(value) && Object.values(value).every((item) => typeof item === 'string')

function isUri(value: unknown): boolean {
  if (typeof value !== 'string') return false
  try {
    return new URL(value).protocol.length > 1
  } catch {
    return false
  }
}

/** Every rule `entry` (agent.json, in a folder named `folder`) breaks; none: it is valid. */
export function agentEntryProblems(entry: unknown, folder: string): string[] {
  if (!isObject(entry)) return ['the entry is not a JSON object']
  const problems: string[] = []
  for (const field of ['id', 'name', 'version', 'description', 'distribution']) {
    if (!(field in entry)) problems.push(`missing required field ${field}`)
  }
  const { id, version } = entry
  if (typeof id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(id)) {
    problems.push('id must start with a letter and hold lowercase letters, digits and hyphens')
  } else if (id !== folder) problems.push(`id ${id} must match its folder ${folder}`)
  for (const field of ['name', 'description']) {
    const value = entry[field]
    if (field in entry && (typeof value !== 'string' || value === '')) {
      problems.push(`${field} must be a non-empty string`)
    }
  }
  if (typeof version !== 'string' || !/^[0-9]+\.[0-9]+\.[0-9]+/.test(version)) {
    problems.push('version must be a semantic version (1.0.0)')
  }
  for (const field of ['repository', 'website', 'license_url']) {
    if (field in entry && !isUri(entry[field])) problems.push(`${field} must be a URI`)
  }
  if ('authors' in entry && !isStrings(entry.authors)) problems.push('authors must be strings')
  for (const field of ['license', 'icon']) {
    if (field in entry && typeof entry[field] !== 'string')
      problems.push(`${field} must be a string`)
  }
  problems.push(
    ...distributionProblems(entry.distribution, typeof version === 'string' ? version : ''),
  )
  return problems
}

function distributionProblems(distribution: unknown, version: string): string[] {
  if (!isObject(distribution) || Object.keys(distribution).length === 0) {
    return ['distribution must be an object with at least one of binary, npx, uvx']
  }
  const problems: string[] = []
  for (const [kind, value] of Object.entries(distribution)) {
    if (kind === 'npx' || kind === 'uvx') problems.push(...packageProblems(kind, value, version))
    else if (kind === 'binary') problems.push(...binaryProblems(value))
    else problems.push(`unknown distribution ${kind}`)
  }
  return problems
}

function packageProblems(kind: string, value: unknown, version: string): string[] {
  if (!isObject(value)) return [`${kind} must be an object`]
  const problems = extraKeys(kind, value, ['package', 'args', 'env'])
  const spec = value.package
  if (typeof spec !== 'string' || spec === '') return [...problems, `${kind}.package is required`]
  if ('args' in value && !isStrings(value.args)) problems.push(`${kind}.args must be strings`)
  if ('env' in value && !isStringMap(value.env)) problems.push(`${kind}.env must map to strings`)
  if (spec.toLowerCase().includes('@latest')) problems.push(`${kind} uses @latest: pin a version`)
  const pinned =
    kind === 'npx' ? /^(@[^@/]+\/)?[^@]+@(.+)$/.exec(spec)?.[2] : /[=@]+([\d.]+)/.exec(spec)?.[1]
  if (pinned !== undefined && pinned !== version) {
    problems.push(`${kind} package version ${pinned} is not the entry's ${version}`)
  }
  return problems
}

function binaryProblems(value: unknown): string[] {
  if (!isObject(value) || Object.keys(value).length === 0) return ['binary must name platforms']
  const problems: string[] = []
  for (const [platform, target] of Object.entries(value)) {
    if (!PLATFORMS.includes(platform)) problems.push(`unknown platform ${platform}`)
    if (!isObject(target) || !isUri(target.archive) || typeof target.cmd !== 'string') {
      problems.push(`binary ${platform} needs an archive URI and a cmd`)
    }
  }
  const families = new Set(Object.keys(value).map((platform) => platform.split('-')[0]))
  const missing = OS_FAMILIES.filter((family) => !families.has(family))
  if (missing.length > 0) problems.push(`binary misses builds for ${missing.join(', ')}`)
  return problems
}

function extraKeys(where: string, value: Json, allowed: string[]): string[] {
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => `${where} has an unknown field ${key}`)
}

/** Every rule the icon (an SVG's text) breaks. */
export function iconProblems(svg: string): string[] {
  const problems: string[] = []
  const width = /<svg[^>]*\swidth=["'](\d+)/.exec(svg)?.[1]
  const height = /<svg[^>]*\sheight=["'](\d+)/.exec(svg)?.[1]
  const viewBox = /viewBox=["'][\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)/.exec(svg)
  const [w, h] =
    width !== undefined && height !== undefined
      ? [Number(width), Number(height)]
      : viewBox
        ? [Number(viewBox[1]), Number(viewBox[2])]
        : [NaN, NaN]
  if (Number.isNaN(w)) problems.push('the icon has no width and height, nor a viewBox')
  else if (w !== 16 || h !== 16) problems.push(`the icon must be 16x16, not ${w}x${h}`)
  for (const [, property, paint] of svg.matchAll(/\b(fill|stroke)\s*=\s*["']([^"']+)["']/gi)) {
    if (!PAINTS.has(paint!.trim().toLowerCase())) problems.push(`hardcoded ${property}="${paint}"`)
  }
  for (const [, style] of svg.matchAll(/\bstyle\s*=\s*["']([^"']+)["']/gi)) {
    for (const [, property, paint] of style!.matchAll(/\b(fill|stroke)\s*:\s*([^;]+)/gi)) {
      if (!PAINTS.has(paint!.trim().toLowerCase())) problems.push(`hardcoded style ${property}`)
    }
  }
  if (!/currentColor/i.test(svg)) problems.push('the icon must paint with currentColor')
  return problems
}
