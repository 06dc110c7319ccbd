// A stand-in for `window.openai`, written from OpenAI's Apps SDK reference (developers.openai.com/apps-sdk/reference):
// read-only globals (toolInput, toolOutput, toolResponseMetadata, widgetState, theme, locale, displayMode,
// maxHeight, safeArea), the widget runtime calls (callTool, sendFollowUpMessage, openExternal,
// requestDisplayMode, setWidgetState, notifyIntrinsicHeight) and, where asked, the ChatGPT-only ones
// (uploadFile, requestModal, requestCheckout). Globals change with an `openai:set_globals` window event
// whose `detail.globals` holds what changed, as the host sends it.
import { appsSdkAdapterScript } from 'duetkit/protocol'

type Json = Record<string, any>

export interface Emulation {
  openai: Json
  calls: Array<[string, unknown[]]>
  /** Changes globals the way the host does: assign, then dispatch `openai:set_globals`. */
  setGlobals(globals: Json): void
}

export function emulateOpenAi(
  win: Window & typeof globalThis,
  globals: Json,
  options: { tools?: Record<string, (args: Json) => Json>; extras?: boolean; omit?: string[] } = {},
): Emulation {
  const calls: Array<[string, unknown[]]> = []
  const record =
    <R>(name: string, answer: (...args: any[]) => R) =>
    (...args: any[]) => {
      calls.push([name, args])
      return answer(...args)
    }
  const openai: Json = {
    toolInput: {},
    toolOutput: null,
    toolResponseMetadata: null,
    widgetState: null,
    theme: 'light',
    locale: 'en-US',
    displayMode: 'inline',
    maxHeight: 600,
    ...globals,
    callTool: record('callTool', async (name: string, args: Json) => {
      const tool = options.tools?.[name]
      if (!tool) throw new Error(`Unknown tool ${name}`)
      return tool(args)
    }),
    sendFollowUpMessage: record('sendFollowUpMessage', async () => {}),
    openExternal: record('openExternal', () => {}),
    requestDisplayMode: record('requestDisplayMode', async ({ mode }: { mode: string }) => {
      emulation.setGlobals({ displayMode: mode })
      return { mode }
    }),
    setWidgetState: record('setWidgetState', async (state: Json) => {
      openai.widgetState = state
    }),
    notifyIntrinsicHeight: record('notifyIntrinsicHeight', () => {}),
    ...(options.extras && {
      uploadFile: record('uploadFile', async () => ({ fileId: 'file_1' })),
      requestModal: record('requestModal', async () => ({})),
      requestCheckout: record('requestCheckout', async () => ({ status: 'completed' })),
    }),
  }
  for (const name of options.omit ?? []) delete openai[name]
  const emulation: Emulation = {
    openai,
    calls,
    setGlobals(changed) {
      Object.assign(openai, changed)
      win.dispatchEvent(new CustomEvent('openai:set_globals', { detail: { globals: changed } }))
    },
  }
  ;(win as unknown as { openai: Json }).openai = openai
  return emulation
}

/**
 * Makes the page the server's Apps SDK twin of a view: runs the very script the server puts in the
 * twin's head (`appsSdkAdapterScript`, from its source text), with `doc`'s window as `window`.
 */
export function markTwin(doc: Document): void {
  new Function('window', appsSdkAdapterScript())(doc.defaultView)
}
