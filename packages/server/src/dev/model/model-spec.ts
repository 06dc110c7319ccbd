import { DuetError } from 'duetkit/protocol'

/** The providers `duet dev --model` speaks to, each through its AI SDK package. */
export const MODEL_PROVIDERS = ['anthropic', 'openai', 'openai-compatible'] as const
export type ModelProvider = (typeof MODEL_PROVIDERS)[number]

/** Which model `duet dev` talks to; the key stays in the `duet dev` process, the page gets only {@link modelLabel}. */
export interface ModelSpec {
  provider: ModelProvider
  /** The provider's model id, e.g. `claude-sonnet-4-5`, `gpt-4.1`, `llama3.2`. */
  model: string
  /** Another endpoint for the provider's API (a gateway; for `openai-compatible`, the endpoint itself). */
  baseUrl?: string
  apiKey?: string
}

// The first variable set wins; DUET_MODEL_API_KEY serves every provider, so one variable covers a gateway.
const KEY_VARIABLES: Record<ModelProvider, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY', 'DUET_MODEL_API_KEY'],
  openai: ['OPENAI_API_KEY', 'DUET_MODEL_API_KEY'],
  'openai-compatible': ['DUET_MODEL_API_KEY'],
}

/**
 * Reads `--model <provider>:<model>` (or `$DUET_MODEL`) and `--model-base-url`, and the key from the
 * environment. Throws USAGE naming the flag or the variable that is wrong or missing.
 */
export function parseModelSpec(raw: string, baseUrl: string | undefined, env: Record<string, string | undefined>): ModelSpec {
  const colon = raw.indexOf(':')
  const provider = raw.slice(0, colon)
  const model = raw.slice(colon + 1).trim()
  if (colon < 1 || !model)
    throw new DuetError('USAGE', `--model ${raw}: expected <provider>:<model>, e.g. anthropic:claude-sonnet-4-5, openai:gpt-4.1 or openai-compatible:llama3.2`)
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider))
    throw new DuetError('USAGE', `--model ${raw}: unknown provider ${JSON.stringify(provider)}; use one of ${MODEL_PROVIDERS.join(', ')}`)
  const spec: ModelSpec = { provider: provider as ModelProvider, model }
  if (baseUrl !== undefined) {
    let url: URL
    try {
      url = new URL(baseUrl)
    } catch {
      throw new DuetError('USAGE', `--model-base-url ${baseUrl}: not a URL; use e.g. http://localhost:11434/v1`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new DuetError('USAGE', `--model-base-url ${baseUrl}: only http and https URLs are supported`)
    spec.baseUrl = url.href.replace(/\/$/, '')
  }
  if (spec.provider === 'openai-compatible' && spec.baseUrl === undefined)
    throw new DuetError('USAGE', `--model ${raw}: an openai-compatible model needs --model-base-url <endpoint>, e.g. http://localhost:11434/v1 for Ollama`)
  const variables = KEY_VARIABLES[spec.provider]
  const found = variables.find((name) => env[name])
  if (found) spec.apiKey = env[found]
  // A local endpoint (Ollama, LM Studio) needs no key; the hosted APIs refuse every call without one.
  else if (spec.provider !== 'openai-compatible')
    throw new DuetError('USAGE', `--model ${raw}: set ${variables.join(' or ')} to the API key (it stays in the duet dev process)`)
  return spec
}

/** What the page may know of the model: never the key. */
export function modelLabel(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}${spec.baseUrl ? ` at ${spec.baseUrl}` : ''}`
}
