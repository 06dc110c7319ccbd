import { DuetError } from 'duetkit/protocol'
import { describe, expect, it } from 'vitest'
import { codedError } from '../../../../../test/support/coded-error.js'
import { startDevServer } from '../../../src/dev/dev-server.js'
import { modelLabel } from '../../../src/dev/model/model-spec.js'
import { createLanguageModel } from '../../../src/dev/model/provider.js'
import { parseDevArgs } from '../../../src/dev/options.js'

const S = ['--server', 'http://127.0.0.1:1/mcp']

describe('duet dev --model', () => {
  it('reads <provider>:<model>, the base URL and the key from the environment', () => {
    expect(parseDevArgs([...S, '--model', 'anthropic:claude-sonnet-4-5'], { ANTHROPIC_API_KEY: 'a-key' }).model).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'a-key',
    })
    expect(parseDevArgs([...S, '--model', 'openai:gpt-4.1'], { DUET_MODEL_API_KEY: 'any' }).model?.apiKey).toBe('any')
    const local = parseDevArgs([...S, '--model', 'openai-compatible:llama3.2', '--model-base-url', 'http://localhost:11434/v1/'], {}).model
    expect(local).toEqual({ provider: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://localhost:11434/v1' })
    expect(modelLabel(local!)).toBe('openai-compatible:llama3.2 at http://localhost:11434/v1')
    // $DUET_MODEL stands for the flag; the flag wins.
    expect(parseDevArgs(S, { DUET_MODEL: 'openai:gpt-4.1', OPENAI_API_KEY: 'k' }).model?.model).toBe('gpt-4.1')
    expect(parseDevArgs([...S, '--model', 'openai:o3'], { DUET_MODEL: 'openai:gpt-4.1', OPENAI_API_KEY: 'k' }).model?.model).toBe('o3')
    expect(parseDevArgs(S, {}).model).toBeUndefined()
  })

  it('refuses a bad model, a missing key or base URL with USAGE, naming the flag or the variable', () => {
    const fails = (argv: string[], env: Record<string, string>, message: RegExp) =>
      expect(() => parseDevArgs([...S, ...argv], env)).toThrow(codedError('USAGE', message))
    fails(['--model', 'gpt-4.1'], {}, /--model gpt-4\.1: expected <provider>:<model>/)
    fails(['--model', 'openai:'], {}, /expected <provider>:<model>/)
    fails(['--model', 'gemini:pro'], {}, /unknown provider "gemini"; use one of anthropic, openai, openai-compatible/)
    fails(['--model', 'anthropic:claude-sonnet-4-5'], {}, /set ANTHROPIC_API_KEY or DUET_MODEL_API_KEY to the API key/)
    fails(['--model', 'openai-compatible:llama3.2'], {}, /needs --model-base-url/)
    fails(['--model', 'openai-compatible:x', '--model-base-url', 'localhost:11434'], {}, /--model-base-url localhost:11434: only http and https/)
    fails(['--model-base-url', 'http://localhost:11434/v1'], {}, /--model-base-url needs --model/)
    fails(['--model', 'openai:a', '--model', 'openai:b'], { OPENAI_API_KEY: 'k' }, /--model is given twice/)
    fails(['--model'], {}, /--model needs a value/)
    fails(['--model', '--port'], {}, /--model needs <provider>:<model>, got --port/)
  })

  it('parses the rest with parseArgs: a stray word and a bare -- are refused by name', () => {
    expect(() => parseDevArgs([...S, 'stray'])).toThrow(codedError('USAGE', /unexpected argument stray/))
    expect(() => parseDevArgs([...S, '--'])).toThrow(codedError('USAGE', /bare --/))
    expect(() => parseDevArgs([...S, '-p', '1'])).toThrow(codedError('USAGE', /unknown option -p/))
    expect(parseDevArgs([...S, '--port=6000']).port).toBe(6000)
  })

  it('startDevServer refuses a malformed model option, naming it', async () => {
    await expect(
      startDevServer({ servers: [{ kind: 'http', url: 'http://127.0.0.1:1/mcp' }], port: 0, model: { provider: 'gemini', model: 'x' } as never }),
    ).rejects.toThrow(codedError('INVALID_OPTION', /options\.model must be/))
  })

  it('makes the model on Node 22 and newer, and says which Node it needs on older ones', async () => {
    const major = Number(process.versions.node.split('.')[0])
    const made = createLanguageModel({ provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' })
    if (major >= 22) await expect(made).resolves.toMatchObject({ modelId: 'm' })
    else {
      await expect(made).rejects.toThrow(DuetError)
      await expect(made).rejects.toThrow(/needs Node 22 or newer .* Without --model, duet dev runs here/)
    }
  })
})
