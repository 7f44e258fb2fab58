// A FIFO lock per key: `run(key, work)` starts `work` once every earlier call for that key has
// settled, in call order. A provider keys it by targetKey so writes and edits of one file never
// interleave inside this process. Not a lock between processes.

export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>()

  /** Runs `work` alone for `key`, after every earlier `run` of that key. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    let release: () => void = () => {}
    const done = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = previous.then(() => done)
    this.tails.set(key, tail)
    try {
      await previous
      return await work()
    } finally {
      release()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }

  /** How many keys have work running or queued. */
  get size(): number {
    return this.tails.size
  }
}
