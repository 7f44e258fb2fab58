// Real HTTP servers on 127.0.0.1 (or ::1) for the web tests: each counts the connections it
// accepted and records the requests it saw, and is closed by the test file's afterEach.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { connect, createServer as createTcpServer } from 'node:net'
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import { afterEach } from 'vitest'
import WebService from '../../src/index'
import type { WebConfig } from '../../src/index'

export interface TestServer {
  /** `http://127.0.0.1:<port>` (or `http://[::1]:<port>`). */
  origin: string
  port: number
  connections: number
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[]
}

const open: (Server | TcpServer)[] = []
const sockets = new Set<Socket>()
const fibers: Fiber[] = []

afterEach(async () => {
  for (const socket of sockets) socket.destroy()
  sockets.clear()
  await Promise.all(open.splice(0).map((server) => new Promise((done) => server.close(done))))
  await Promise.all(fibers.splice(0).map((fiber) => fiber.dispose()))
})

export async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const state: TestServer = { origin: '', port: 0, connections: 0, requests: [] }
  const server = createServer((req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    handler(req, res)
  })
  server.on('connection', (socket) => {
    state.connections++
    sockets.add(socket)
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  open.push(server)
  state.port = (server.address() as AddressInfo).port
  state.origin = host.includes(':')
    ? `http://[${host}]:${state.port}`
    : `http://${host}:${state.port}`
  return state
}

/** A CONNECT proxy on 127.0.0.1 that tunnels every target to `to` and records what it was asked. */
export async function startProxy(to: number): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = []
  const server = createTcpServer((client) => {
    sockets.add(client)
    client.once('data', (head) => {
      const line = head.toString('latin1').split('\r\n')[0] ?? ''
      asked.push(line)
      const upstream = connect(to, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        client.pipe(upstream).pipe(client)
      })
      sockets.add(upstream)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  open.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked }
}

/** ctx.web with `config` (no proxy from the environment unless given). */
export async function loadWeb(config: WebConfig = {}): Promise<WebService> {
  const ctx = new Context()
  fibers.push(await ctx.plugin(WebService, { proxyEnv: {}, ...config }))
  return ctx.web
}
