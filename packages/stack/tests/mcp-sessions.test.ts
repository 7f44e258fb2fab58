// The app's MCP wiring, its pure half: ACP server entries as ctx.mcp takes them.
import { describe, expect, it } from 'vitest'
import { fromAcpMcpServer } from '../src/mcp-sessions'

describe('acp server entries', () => {
  it('a stdio entry keeps command and args and turns env pairs into a record', () => {
    const entry = {
      name: 'docs',
      command: '/usr/bin/docs',
      args: ['--fast'],
      env: [
        { name: 'TOKEN', value: 't' },
        { name: 'MODE', value: 'ro' },
      ],
    }
    expect(fromAcpMcpServer(entry)).toEqual({
      name: 'docs',
      command: '/usr/bin/docs',
      args: ['--fast'],
      env: { TOKEN: 't', MODE: 'ro' },
    })
  })

  it('an http entry becomes an http server with its headers as a record', () => {
    const entry = {
      type: 'http' as const,
      name: 'web',
      url: 'https://mcp.example/mcp',
      headers: [{ name: 'Authorization', value: 'Bearer x' }],
    }
    expect(fromAcpMcpServer(entry)).toEqual({
      name: 'web',
      transport: 'http',
      url: 'https://mcp.example/mcp',
      headers: { Authorization: 'Bearer x' },
    })
  })

  it('an sse entry is not taken', () => {
    const entry = { type: 'sse' as const, name: 'old', url: 'https://x/sse', headers: [] }
    expect(fromAcpMcpServer(entry)).toBeUndefined()
  })
})
