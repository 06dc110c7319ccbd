import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

// One self-contained dist/index.html: the host loads the view with no other files and no network.
// `omit` leaves out the parts of duetkit the reader does not use (no <svg>, no `hook` prop).
export default defineConfig({
  plugins: [duet({ omit: ['svg', 'hooks'] }), viteSingleFile()],
  test: { name: 'reader' },
})
