import type { Recipe } from './recipe.js'

/** The `content-viewer` recipe. */
export const contentViewer: Recipe = {
  name: 'content-viewer',
  title: 'Content viewer: a paginated reader fed by app data',
  description: 'Long content read page by page: put_app_data (with append) on your side, get_app_data in the app.',
  text: `# Content viewer: a paginated reader fed by app data

Long content (a book, a log, a table of thousands of rows) does not belong in the app's HTML or in
your tool arguments over and over. Store it once with \`put_app_data\`; the app reads one page at a
time with \`get_app_data\` (an app-only tool), so neither the chat nor the iframe holds it all.

## Storing the content

Store pages as an array under a key. The app name is the namespace of its data, and the \`app\` you
give the display tool, so its view may read it:

\`\`\`json tool-call
{ "tool": "put_app_data", "arguments": { "app": "moby-dick", "key": "pages", "value": ["Call me Ishmael. Some years ago...", "There now is your insular city of the Manhattoes..."] } }
\`\`\`

One call carries a limited amount (hosts cap a call near a million characters), so send long
content in parts with \`append: true\`; arrays are extended, strings concatenated:

\`\`\`json tool-call
{ "tool": "put_app_data", "arguments": { "app": "moby-dick", "key": "pages", "value": ["Chapter 2. The Carpet-Bag..."], "append": true } }
\`\`\`

Small JSON (a table of contents, settings) can sit under its own key:

\`\`\`json tool-call
{ "tool": "put_app_data", "arguments": { "app": "moby-dick", "key": "contents", "value": { "chapters": [{ "title": "Loomings", "page": 0 }, { "title": "The Carpet-Bag", "page": 2 }] } } }
\`\`\`

## How pages work

\`get_app_data({ app, key, offset?, limit? })\` returns \`{ value, offset, total, next? }\`:

- an **array** pages by items (default 50 a page), so \`value\` is a slice of the array;
- a **string** pages by characters (default 20000; JavaScript string length, never splitting a
  character made of two code units);
- any other JSON value comes back whole, with \`total: 1\`.

\`next\` is the offset of the following page and is missing on the last one. This is what the app
sends (you do not call it yourself):

\`\`\`json tool-call
{ "tool": "get_app_data", "arguments": { "app": "moby-dick", "key": "pages", "offset": 1, "limit": 1 } }
\`\`\`

## The viewer

A Duet component that shows one page and turns pages with two buttons:

\`\`\`jsx duet-component
function Viewer({ state }) {
  return (
    <article className="viewer">
      <p className="page">{state.status === 'ready' ? state.text : state.status}</p>
      <nav>
        <button type="button" className="prev" disabled={state.page === 0}>Previous</button>
        <span className="where">{state.total ? \`\${state.page + 1} / \${state.total}\` : ''}</span>
        <button type="button" className="next" disabled={state.page + 1 >= state.total}>Next</button>
      </nav>
    </article>
  )
}

Viewer.initialState = { page: 0, total: 0, text: '', status: 'Loading...' }

const load = (page) => ({
  callTool: 'get_app_data',
  args: { app: 'moby-dick', key: 'pages', offset: page, limit: 1 },
  ok: 'PAGE',
  error: 'FAILED',
})

Viewer.intent = ({ DOM, MCP }) => ({
  // The host's handshake answer means the bridge is up: time to fetch the first page.
  START: MCP.select('host'),
  PREV: DOM.click('.prev'),
  NEXT: DOM.click('.next'),
})

Viewer.model = {
  START: { MCP: (state) => load(state.page) },
  PREV: { STATE: (state) => ({ ...state, page: state.page - 1 }), MCP: (state) => load(state.page - 1) },
  NEXT: { STATE: (state) => ({ ...state, page: state.page + 1 }), MCP: (state) => load(state.page + 1) },
  PAGE: (state, result) => ({ ...state, status: 'ready', text: result.structuredContent.value[0], total: result.structuredContent.total }),
  FAILED: (state, failure) => ({ ...state, status: \`Could not load the page: \${failure.error}\` }),
}

export default Viewer
\`\`\`

Show it with \`display_component\` and \`"app": "moby-dick"\`: a view may read only the data of the app
its render belongs to (without \`app\` it reads none), so one app never sees another's data.

The app needs no fixed height: the display shell reports its content's height and the host sizes the
frame to it. Avoid \`100vh\` and \`height: 100%\` on the page, which only mean the frame's current size.
`,
}
