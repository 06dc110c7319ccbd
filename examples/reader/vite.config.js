import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

// One self-contained dist/index.html: the host loads the view with no other files and no network.
export default defineConfig({
  plugins: [duet(), viteSingleFile()],
  test: { name: 'reader' },
})
