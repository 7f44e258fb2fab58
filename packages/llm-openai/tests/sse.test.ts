import { describe, expect, it } from 'vitest'
import { SseParser } from '../src/sse'

function parseAll(pieces: string[]): string[] {
  const parser = new SseParser()
  const events = pieces.flatMap((piece) => parser.push(piece))
  return [...events, ...parser.end()]
}

describe('event framing', () => {
  it('each blank line ends an event', () => {
    expect(parseAll(['data: one\n\ndata: two\n\n'])).toEqual(['one', 'two'])
  })

  it('several data lines of one event are joined by a line feed', () => {
    expect(parseAll(['data: a\ndata: b\n\n'])).toEqual(['a\nb'])
  })

  it('crlf and lone cr line ends are both accepted', () => {
    expect(parseAll(['data: crlf\r\n\r\ndata: cr\r\rdata: lf\n\n'])).toEqual(['crlf', 'cr', 'lf'])
  })

  it('only one space after the colon is dropped', () => {
    expect(parseAll(['data:tight\n\ndata:  spaced\n\n'])).toEqual(['tight', ' spaced'])
  })

  it('comments, other fields and extra blank lines yield nothing', () => {
    expect(
      parseAll([': keep-alive\n\nevent: message\nid: 3\nretry: 10\n\n\n\ndata: x\n\n']),
    ).toEqual(['x'])
  })

  it('a data line without a colon is an empty data value', () => {
    expect(parseAll(['data\n\n'])).toEqual([''])
  })
})

describe('pieces from the network', () => {
  it('a line split across pieces is joined', () => {
    expect(parseAll(['da', 'ta: {"a"', ':1}', '\n', '\n'])).toEqual(['{"a":1}'])
  })

  it('a crlf split between two pieces is one line end', () => {
    expect(parseAll(['data: a\r', '\n\r', '\ndata: b\r\n\r\n'])).toEqual(['a', 'b'])
  })

  it('a cr at the end of a piece followed by a blank line still ends the event', () => {
    const parser = new SseParser()
    expect(parser.push('data: a\r')).toEqual([])
    expect(parser.push('')).toEqual([])
    expect(parser.push('\n')).toEqual([])
    expect(parser.push('\n')).toEqual(['a'])
  })

  it('an event completes as soon as its blank line arrives', () => {
    const parser = new SseParser()
    expect(parser.push('data: a\n')).toEqual([])
    expect(parser.push('\ndata: b')).toEqual(['a'])
    expect(parser.end()).toEqual(['b'])
  })

  it('every split of a stream gives the same events', () => {
    const stream = ': hi\r\ndata: one\r\n\r\ndata: two\ndata: more\n\ndata: three\r\r'
    const expected = ['one', 'two\nmore', 'three']
    for (let cut = 0; cut <= stream.length; cut += 1) {
      expect(parseAll([stream.slice(0, cut), stream.slice(cut)])).toEqual(expected)
    }
    expect(parseAll(Array.from(stream))).toEqual(expected)
  })
})
