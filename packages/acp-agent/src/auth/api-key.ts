// The model's key while the app runs, in its order: the environment first (DSH_API_KEY,
// DEEPSEEK_API_KEY, OPENAI_API_KEY), then the key the person stored with `dsh-acp --login`
// (./credentials). An app started without any looks again when asked (`refresh`, at
// `authenticate` and before each session opens), so a login in a terminal is used without a
// restart. `current` does no I/O: the model asks it before every request.
import { apiKeyFromEnv } from '@deepseek-ai/dsh-llm-openai'
import { readStoredKey, removeKey } from './credentials'

export interface ApiKeySourceOptions {
  env: Record<string, string | undefined>
  /** The credentials file (./credentials: credentialsPath). */
  file: string
  /** The server the key is for. */
  baseUrl: string
  /** A stored file that could not be read, said once per distinct problem. */
  warn(problem: string): void
}

export class ApiKeySource {
  private readonly envKey: string | undefined
  private stored: string | undefined
  private lastProblem: string | undefined

  constructor(private readonly options: ApiKeySourceOptions) {
    this.envKey = apiKeyFromEnv(options.env)
    this.refresh()
  }

  /** The key in force: the environment's, else the stored one as last read. */
  current(): string | undefined {
    return this.envKey ?? this.stored
  }

  /** Where the key in force comes from. */
  origin(): 'environment' | 'stored' | undefined {
    if (this.envKey !== undefined) return 'environment'
    return this.stored === undefined ? undefined : 'stored'
  }

  /** Reads the stored key again (only while the environment gives none). */
  refresh(): void {
    if (this.envKey !== undefined) return
    const read = readStoredKey(this.options.file, this.options.baseUrl)
    this.stored = read.apiKey
    if (read.problem !== undefined && read.problem !== this.lastProblem) {
      this.options.warn(read.problem)
    }
    this.lastProblem = read.problem
  }

  /** Removes the stored key and forgets it; an environment key stays in force. */
  logout(): void {
    removeKey(this.options.file, this.options.baseUrl)
    this.stored = undefined
  }
}
