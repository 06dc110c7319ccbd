import type { JSX } from 'duetkit/jsx-runtime'

// `display: contents`: a mount point adds no box, so the header stays sticky and the grid keeps its columns.
const slot = (name: string, testid?: string): JSX.Element => <div data-mount={name} data-testid={testid} style={{ display: 'contents' }} />

/**
 * The page's frame: the header, then three columns (the tabs on the left; the chat, the stage and the
 * tool's form in the middle, the app above its form; the panels and the trace on the right). Each
 * `[data-mount]` is left empty for one part of the page, run as a duetkit app of its own.
 */
export function Layout(): JSX.Element {
  return (
    <div style={{ display: 'contents' }}>
      {slot('header')}
      <main>
        <section>{slot('side')}</section>
        <section>
          {slot('chat', 'chat-box')}
          {slot('banner')}
          {slot('stage')}
          <div data-mount="tool-area" data-testid="tool-area" />
          {slot('tool-input')}
          {slot('tool-result')}
        </section>
        <section>
          {slot('model-context')}
          {slot('messages')}
          {slot('agent')}
          {slot('logs')}
          {slot('trace')}
        </section>
      </main>
    </div>
  )
}
