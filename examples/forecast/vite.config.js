import { defineConfig } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from 'duetkit/vite'

// One self-contained dist/index.html: the host loads the view with no other files and no network.
// duet() compiles JSX with Duet's runtime.
export default defineConfig({
  plugins: [duet(), viteSingleFile()],
})
