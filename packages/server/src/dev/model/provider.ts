import { DuetError } from 'duetkit/protocol'
import type { LanguageModel } from 'ai'
import type { ModelSpec } from './model-spec.js'

/** The AI SDK 7 runs on Node 22 and newer; `duet dev` without `--model` still runs on older Nodes. */
export const MODEL_NODE_MAJOR = 22

/**
 * Makes the AI SDK model for a spec. The SDK is imported here, on first use only, so that
 * `duet dev` without `--model` never loads it (nor needs the Node it needs).
 */
export async function createLanguageModel(spec: ModelSpec): Promise<LanguageModel> {
  const major = Number(process.versions.node.split('.')[0])
  if (major < MODEL_NODE_MAJOR)
    throw new DuetError(
      'UNSUPPORTED',
      `duet dev --model needs Node ${MODEL_NODE_MAJOR} or newer (the AI SDK 7 does); this is Node ${process.versions.node}. Without --model, duet dev runs here.`,
      { option: 'model' },
    )
  const base = spec.baseUrl === undefined ? {} : { baseURL: spec.baseUrl }
  if (spec.provider === 'anthropic') {
    const { createAnthropic } = await import('@ai-sdk/anthropic')
    return createAnthropic({ apiKey: spec.apiKey, ...base }).languageModel(spec.model)
  }
  if (spec.provider === 'openai') {
    const { createOpenAI } = await import('@ai-sdk/openai')
    return createOpenAI({ apiKey: spec.apiKey, ...base }).languageModel(spec.model)
  }
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
  // includeUsage asks the endpoint for token counts in the stream, for the per-turn counts.
  return createOpenAICompatible({ name: 'openai-compatible', baseURL: spec.baseUrl!, apiKey: spec.apiKey, includeUsage: true }).chatModel(spec.model)
}
