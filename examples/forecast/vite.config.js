import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

// One self-contained dist/index.html: the host loads the view with no other files and no network.
// duet() compiles JSX with Duet's runtime; `omit` leaves out the parts of duetkit the card does not use
// (it draws no <svg> and sets no `hook` prop), about 0.2 KB of its page.
export default defineConfig({
  plugins: [duet({ omit: ['svg', 'hooks'] }), viteSingleFile()],
})
