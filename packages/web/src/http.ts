// The seam's HTTP client: one undici request at a time, through the guard. A direct request
// connects through an Agent whose `lookup` resolves, checks and pins the address (./guard.ts);
// an IP literal is checked before the request (the socket looks nothing up for it). A request
// through a proxy from the environment (./proxy.ts) checks the target host's addresses before
// the request; the proxy then resolves the name itself, which the guard cannot pin, and the
// proxy's own address is not checked (the person chose it). Redirects are not followed here.
// undici loads at the first request, not with the seam: it brings Node's HTTP and TLS modules,
// which an agent start that never reads the web should not pay for.
import type { Agent, Dispatcher, ProxyAgent } from 'undici'
import { checkHostLiteral, guardedLookup, resolveChecked } from './guard'
import { proxyFor } from './proxy'
import type { WebProxyEnv } from './proxy'
import type { WebResolver } from './types'

export interface WebHttpOptions {
  resolver: WebResolver
  /** Loopback, private and link-local targets allowed. */
  allowPrivate: boolean
  proxy: WebProxyEnv
  userAgent: string
}

export interface WebHttpRequest {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  signal: AbortSignal
  /** The guard applies (fetches); a configured endpoint (a search provider) skips it. */
  guarded: boolean
}

export type WebHttpResponse = Dispatcher.ResponseData

type Undici = typeof import('undici')

/** The agents of a client, made with undici once it is loaded. */
interface Agents {
  undici: Undici
  guarded: Agent
  open: Agent
}

export class WebHttp {
  private agents: Promise<Agents> | undefined
  private readonly proxies = new Map<string, ProxyAgent>()

  constructor(private readonly options: WebHttpOptions) {}

  async request(url: URL, init: WebHttpRequest): Promise<WebHttpResponse> {
    const guard = init.guarded && !this.options.allowPrivate
    const proxy = proxyFor(url, this.options.proxy)
    const agents = await this.loadAgents()
    let dispatcher: Dispatcher
    if (proxy !== undefined) {
      if (guard) await resolveChecked(url.hostname, this.options.resolver, false)
      dispatcher = this.proxyAgent(agents.undici, proxy)
    } else {
      if (guard) checkHostLiteral(url.hostname)
      dispatcher = init.guarded ? agents.guarded : agents.open
    }
    return agents.undici.request(url, {
      dispatcher,
      method: init.method ?? 'GET',
      headers: { 'user-agent': this.options.userAgent, ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
      signal: init.signal,
    })
  }

  async close(): Promise<void> {
    const loaded = this.agents
    this.agents = undefined
    if (loaded === undefined) return
    const { guarded, open } = await loaded
    const agents = [guarded, open, ...this.proxies.values()]
    this.proxies.clear()
    // Closing waits for requests in flight; they were aborted with their calls.
    await Promise.all(agents.map((agent) => agent.destroy()))
  }

  private loadAgents(): Promise<Agents> {
    this.agents ??= import('undici').then((undici) => ({
      undici,
      guarded: new undici.Agent({
        connect: { lookup: guardedLookup(this.options.resolver, this.options.allowPrivate) },
      }),
      open: new undici.Agent({ connect: { lookup: guardedLookup(this.options.resolver, true) } }),
    }))
    return this.agents
  }

  private proxyAgent(undici: Undici, uri: string): ProxyAgent {
    let agent = this.proxies.get(uri)
    if (agent === undefined) {
      agent = new undici.ProxyAgent({ uri })
      this.proxies.set(uri, agent)
    }
    return agent
  }
}
