import { DuetError } from '../protocol/errors.js'
import type { OpenAiExtra } from '../protocol/apps-sdk-adapter.js'
import type { McpFeature } from './feature.js'
import { isObject, type JsonObject } from './json-rpc.js'

/**
 * ChatGPT's own calls through the `{ openai: 'uploadFile' | 'requestModal' | 'requestCheckout', args }`
 * sink: run in an Apps SDK host whose `window.openai` has them (the twin's handshake lists them in
 * `hostCapabilities.openai`), refused with `UNSUPPORTED` everywhere else. Part of `makeMcpAppDriver`;
 * pass it to `makeLeanMcpAppDriver` for a view that makes these calls.
 */
export function withOpenAiExtras(): McpFeature {
  return (ctx) => ({
    handlers: {
      async openai(name: unknown, sink: JsonObject) {
        const extra = String(name)
        const method = `openai/${extra}`
        const host = ctx.appsSdk
        // Under window.openai the handshake is the twin's, and it is what lists the extras.
        if (host) await ctx.handshake()
        const offered = ctx.hostCapabilities()?.openai
        if (!host || !isObject(offered) || !(extra in offered))
          throw new DuetError('UNSUPPORTED', `${method}: window.openai.${extra} is not available in this host`, { method })
        return host.openai(extra as OpenAiExtra, sink.args)
      },
    },
  })
}
