// Builds what @duetkit/server serves to browsers, once, with the package (after tsc):
// dist/assets/display-shell.html (the agent-apps display shell) and dist/assets/dev-page.js (the
// `duet dev` host page). At run time esbuild compiles only the components an agent writes.
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { duetShims } from 'duetkit/vite'
import { shellPage } from '../dist/apps/shell-page.js'

const dist = (p) => fileURLToPath(new URL(`../dist/${p}`, import.meta.url))

async function bundle(entry, options) {
  const result = await build({ entryPoints: [dist(entry)], bundle: true, write: false, minify: true, legalComments: 'none', logLevel: 'warning', ...options })
  return result.outputFiles[0].text
}

mkdirSync(dist('assets'), { recursive: true })
// The shell runs in every host's iframe: ES2020 and Duet's shims keep it small and old-browser safe.
const shell = await bundle('apps/shell/main.js', { format: 'iife', platform: 'browser', target: 'es2020', plugins: [duetShims()] })
writeFileSync(dist('assets/display-shell.html'), shellPage(shell))
// The dev page is a tool: minified without a source map, which would make it megabytes.
const devPage = await bundle('dev/page/main.js', { format: 'esm', platform: 'browser', target: 'es2022' })
writeFileSync(dist('assets/dev-page.js'), devPage)
// The `duet check` host page: the dev page's mountApp and the official AppBridge, driven by Playwright.
const checkPage = await bundle('check/page/main.js', { format: 'esm', platform: 'browser', target: 'es2022' })
writeFileSync(dist('assets/check-page.js'), checkPage)
