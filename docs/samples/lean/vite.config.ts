// A view that only shows what the host sends: no clicks read, nothing sent to the host, no styles for
// the host's theme to reach, no <svg>, no `hook` prop. It leaves those parts of duetkit out of its bundle.
import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

export default defineConfig({
  plugins: [duet({ omit: ['dom-events', 'mcp-sinks', 'host-theme', 'svg', 'hooks'] }), viteSingleFile()],
})
