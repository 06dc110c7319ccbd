import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

// The view reads no DOM events, sends nothing to the host, has no styles for the host's theme to reach,
// no <svg> and no `hook` prop: it leaves those parts of duetkit out (the official `App` anchor has none of them either).
export default defineConfig({
  plugins: [duet({ omit: ['dom-events', 'mcp-sinks', 'host-theme', 'svg', 'hooks'] }), viteSingleFile()],
})
