// What the display shell lets its page and component call, and what it adds: the shell is the view's only
// sanctioned way to the server, so it names the render every data call comes from (the server then keeps the
// call to that render's app) and refuses the agent's own tools before they leave the frame. A host that
// enforces tool visibility refuses those too; the server cannot tell a forged call from the agent's.

/** Tools the agent alone calls (`visibility: ['model']` on the server): a view would reach its neighbours' apps. */
export const AGENT_ONLY_TOOLS: ReadonlySet<string> = new Set(['list_saved_apps', 'load_app', 'delete_saved_app'])

/** Tools whose calls the shell marks with the render's channel, so they reach only that render's app. */
const CONFINED_TOOLS: ReadonlySet<string> = new Set(['get_app_data', 'put_app_data'])

/** True when the server keeps a view's call of `name` to its render's app (the shell adds the channel). */
export function isConfined(name: unknown): boolean {
  return typeof name === 'string' && CONFINED_TOOLS.has(name)
}

/** True when the shell must refuse a view's call of `name`. */
export function isAgentOnly(name: unknown): boolean {
  return typeof name === 'string' && AGENT_ONLY_TOOLS.has(name)
}

/** `args` of a call of `name`, with the render's channel added where the server confines the call by it. */
export function withViewChannel(name: unknown, args: unknown, channel: string | undefined): unknown {
  if (!isConfined(name) || channel === undefined) return args
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return args
  // The page's own channel_id is replaced: a view speaks for its own render only.
  return { ...(args as Record<string, unknown>), channel_id: channel }
}

/** The error message of a refused agent-only call. */
export function agentOnlyMessage(name: string): string {
  return `${name} is for the agent only: a view may touch only its own app's data and saved app`
}
