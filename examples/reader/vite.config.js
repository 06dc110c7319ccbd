import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'

// One self-contained dist/index.html: the host loads the view with no other files and no network.
export default defineConfig({
  plugins: [viteSingleFile()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'duet' } },
  test: { name: 'reader' },
})
