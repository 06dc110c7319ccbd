// The reader as one display_component module: declaration.js, selection.js and Reader.jsx joined, their
// local imports and exports dropped. The duet package ships it as the `declaration-reader` recipe;
//   node examples/reader/recipe-source.js --write
// regenerates packages/server/src/apps/recipes/declaration-reader.ts after the reader changes (a test
// in packages/server fails until then).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const read = (name) => readFileSync(fileURLToPath(new URL(`./src/${name}`, import.meta.url)), 'utf8')

/** The module text an agent passes to display_component to show the reader. */
export function readerModuleSource() {
  const local = (text) => text.replace(/^import .* from '\.\/.*'\n/gm, '').replace(/^export (const|function) /gm, '$1 ')
  const reader = read('Reader.jsx')
  const imports = reader.match(/^import .* from 'duetkit'\n/gm) ?? []
  const body = local(reader).replace(/^import .* from 'duetkit'\n/gm, '')
  // The example's page loads styles.css; a display_component module has no page of its own, so it
  // carries the stylesheet and renders it with the view (the passage and its margin side by side).
  const css = read('styles.css').replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
  const styled = body.replace(
    /^export default Reader\n?$/m,
    [
      `const READER_CSS = \`\n${css.trim()}\n\``,
      '',
      '// The view with its stylesheet: the display shell has no CSS file for the module to load.',
      'function StyledReader(args) {',
      '  return (',
      '    <div className="reader-page">',
      '      <style>{READER_CSS}</style>',
      '      {Reader(args)}',
      '    </div>',
      '  )',
      '}',
      'StyledReader.initialState = Reader.initialState',
      'StyledReader.intent = Reader.intent',
      'StyledReader.model = Reader.model',
      '',
      'export default StyledReader',
      '',
    ].join('\n'),
  )
  return `${[imports.join('').trim(), local(read('declaration.js')).trim(), local(read('selection.js')).trim(), styled.trim()].join('\n\n')}\n`
}

/** The recipe module's TypeScript source, with the module text as one template literal. */
export function recipeFile() {
  const escapeTemplate = (s) => s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
  return `import type { Recipe } from './recipe.js'

// Generated from examples/reader by \`node examples/reader/recipe-source.js --write\`; do not edit by hand.

/** The \`declaration-reader\` recipe: the complete reader example as one display_component module. */
export const declarationReader: Recipe = {
  name: 'declaration-reader',
  title: 'The Declaration reader: a complete margin-comments app',
  description: 'The complete Declaration of Independence reader as one display_component module: render it as is, then answer questions beside passages.',
  text: \`# The Declaration reader: a complete margin-comments app

The user selects words in a passage of the Declaration of Independence and asks about them; each
question reaches you as an \\\`ask\\\` message and your answer appears beside the passage, in threads
with follow-ups. The module carries its own stylesheet (\\\`READER_CSS\\\`, rendered in a \\\`<style>\\\`
element by the view): that is what puts the margin beside the text; keep it when you adapt the app. This is the \\\`examples/reader\\\` app of the Duet repository as one module, ready for
\\\`display_component\\\`. The protocol is the one of the \\\`margin-comments\\\` recipe.

\\\`\\\`\\\`jsx duet-component
${escapeTemplate(readerModuleSource())}\\\`\\\`\\\`

Show it, passing the module above as \\\`source\\\`:

\\\`\\\`\\\`json tool-call
{ "tool": "display_component", "arguments": { "title": "Declaration reader", "source": "<the module above>" } }
\\\`\\\`\\\`

Then wait for questions (a background \\\`duet wait <channel_id>\\\`, or \\\`poll_agent_messages\\\` with
\\\`wait_seconds\\\`). Each \\\`ask\\\` carries \\\`{ thread_id, quote, question, paragraph_id, paragraph, history }\\\`;
answer it on the same thread in two to four sentences:

\\\`\\\`\\\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "answer", "data": { "thread_id": "t1", "text": "It announces that the colonies are separating from Britain." } } }
\\\`\\\`\\\`
\`,
}
`
}

if (process.argv.includes('--write')) {
  const target = fileURLToPath(new URL('../../packages/server/src/apps/recipes/declaration-reader.ts', import.meta.url))
  writeFileSync(target, recipeFile())
  process.stdout.write(`wrote ${target}\n`)
}
