import type { McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps/app-bridge'
import { DuetError } from 'duetkit/protocol'

type DisplayMode = 'inline' | 'fullscreen' | 'pip'

/** How one host introduces itself to a view: what `ui/initialize` answers and which display modes it offers. */
export interface HostPreset {
  id: string
  label: string
  hostInfo: { name: string; version: string }
  capabilities: McpUiHostCapabilities
  availableDisplayModes: DisplayMode[]
  platform: 'web' | 'desktop' | 'mobile'
}

const text = { text: {} }

// Approximations of what each host advertises, taken from their public docs and issue threads;
// they exist so an app author can see how a view degrades when a capability is missing.
export const HOST_PRESETS: readonly HostPreset[] = [
  {
    id: 'full',
    label: 'Full host (every capability)',
    hostInfo: { name: 'duet-dev', version: '0.1.0' },
    capabilities: {
      openLinks: {},
      downloadFile: {},
      serverTools: { listChanged: true },
      serverResources: { listChanged: true },
      logging: {},
      updateModelContext: { text: {}, image: {}, structuredContent: {} },
      message: { text: {}, image: {}, resource: {}, resourceLink: {} },
    },
    availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    platform: 'web',
  },
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    hostInfo: { name: 'Claude Desktop', version: 'preset' },
    capabilities: { openLinks: {}, downloadFile: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: text, message: text },
    availableDisplayModes: ['inline', 'fullscreen'],
    platform: 'desktop',
  },
  {
    id: 'chatgpt',
    label: 'ChatGPT',
    hostInfo: { name: 'ChatGPT', version: 'preset' },
    capabilities: { openLinks: {}, serverTools: {}, updateModelContext: text, message: text },
    availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    platform: 'web',
  },
  {
    id: 'vscode',
    label: 'VS Code',
    hostInfo: { name: 'Visual Studio Code', version: 'preset' },
    capabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: text },
    availableDisplayModes: ['inline'],
    platform: 'desktop',
  },
]

/** The preset with this id; throws naming the known ids. */
export function presetById(id: string): HostPreset {
  const found = HOST_PRESETS.find((p) => p.id === id)
  if (!found) throw new DuetError('NOT_FOUND', `unknown host preset '${id}'; known: ${HOST_PRESETS.map((p) => p.id).join(', ')}`, { kind: 'preset', name: id })
  return found
}
