// Which proxy a request goes through, as curl and most tools read the environment:
// `HTTPS_PROXY` for https URLs, `HTTP_PROXY` for http ones (lower-case names too, which win),
// none for a host `NO_PROXY` lists (`*`, a name, `.suffix` or `suffix` for the name and its
// subdomains, an IP, each with an optional `:port`). Pure: the environment is passed in.

/** The proxy settings read from an environment. */
export interface WebProxyEnv {
  httpsProxy?: string
  httpProxy?: string
  noProxy?: string
}

export function proxyEnvFrom(env: Readonly<Record<string, string | undefined>>): WebProxyEnv {
  const pick = (name: string): string | undefined => {
    const value = env[name.toLowerCase()] ?? env[name]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  const httpsProxy = pick('HTTPS_PROXY')
  const httpProxy = pick('HTTP_PROXY')
  const noProxy = pick('NO_PROXY')
  return {
    ...(httpsProxy !== undefined && { httpsProxy }),
    ...(httpProxy !== undefined && { httpProxy }),
    ...(noProxy !== undefined && { noProxy }),
  }
}

/** The proxy URL for `url`, or undefined to connect directly. */
export function proxyFor(url: URL, env: WebProxyEnv): string | undefined {
  const proxy = url.protocol === 'https:' ? env.httpsProxy : env.httpProxy
  if (proxy === undefined) return undefined
  if (env.noProxy !== undefined && bypasses(url, env.noProxy)) return undefined
  return proxy.includes('://') ? proxy : `http://${proxy}`
}

function bypasses(url: URL, noProxy: string): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '')
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return noProxy
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .some((entry) => {
      if (entry === '*') return true
      const { name, entryPort } = splitEntry(entry.toLowerCase())
      if (entryPort !== undefined && entryPort !== port) return false
      const bare = name.replace(/^\*?\./, '')
      return host === bare || host.endsWith(`.${bare}`)
    })
}

function splitEntry(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
  if (bracketed) return { name: bracketed[1]!, ...(bracketed[2] && { entryPort: bracketed[2] }) }
  const colons = entry.split(':').length - 1
  if (colons === 1) {
    const [name, entryPort] = entry.split(':') as [string, string]
    return { name, entryPort }
  }
  return { name: entry }
}
