// The little of oidc-provider (it ships no types) that the test issuer uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface InteractionDetails {
    uid: string
    prompt: { name: string; details: Record<string, unknown> }
    params: Record<string, unknown>
    session?: { accountId?: string }
    grantId?: string
  }

  interface Grant {
    addOIDCScope(scope: string): void
    addResourceScope(resource: string, scope: string): void
    save(): Promise<string>
  }

  interface GrantConstructor {
    new (properties: { accountId?: string; clientId?: string }): Grant
    find(id: string): Promise<Grant | undefined>
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    readonly issuer: string
    readonly Grant: GrantConstructor
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
