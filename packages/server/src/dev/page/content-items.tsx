import type { GetPromptResult } from '@modelcontextprotocol/client'
import type { JSX } from 'duetkit/jsx-runtime'
import { base64Size, readableText, type ResourceContent } from './content-view.js'
import { pretty } from './dom.js'

/** One resource content item: its URI and type, then its text (never rendered as HTML) or, for a blob, size and type. */
export function ContentItem(item: ResourceContent): JSX.Element {
  const mime = item.mimeType ?? (item.blob !== undefined ? 'application/octet-stream' : 'text/plain')
  return (
    <div className="entry" data-testid="resource-content">
      <div className="dir">{`${item.uri ?? ''} · ${mime}`}</div>
      {item.blob !== undefined ? (
        <div data-testid="resource-blob">{`blob: ${base64Size(item.blob)} bytes, ${mime}`}</div>
      ) : (
        <pre data-testid="resource-text" className="content-text">
          {readableText(item.text ?? '', mime)}
        </pre>
      )}
      {item._meta !== undefined ? (
        <details>
          <summary>_meta</summary>
          <pre>{pretty(item._meta)}</pre>
        </details>
      ) : null}
    </div>
  )
}

/** A banner naming what failed, under the test id the tabs' tests look for. */
export function ErrorBanner(testid: string, text: string): JSX.Element {
  return (
    <div className="error-banner" data-testid={testid}>
      {text}
    </div>
  )
}

type PromptMessage = GetPromptResult['messages'][number]

/** One message of a prompt as text a person reads: text as is, media as type and size, resources as read. */
export function PromptMessageView(m: PromptMessage): JSX.Element {
  const c = m.content as { type: string; text?: string; data?: string; mimeType?: string; resource?: unknown; uri?: string; name?: string }
  let body: JSX.Element
  if (c.type === 'text') body = <pre className="content-text">{c.text ?? ''}</pre>
  else if (c.type === 'image' || c.type === 'audio') body = <div>{`${c.type}: ${base64Size(c.data ?? '')} bytes, ${c.mimeType ?? 'unknown type'}`}</div>
  else if (c.type === 'resource') body = ContentItem(c.resource as ResourceContent)
  else if (c.type === 'resource_link') body = <div>{`link to ${c.uri}${c.name ? ` (${c.name})` : ''}`}</div>
  else body = <pre>{pretty(c)}</pre>
  return (
    <div className="entry" data-testid="prompt-message">
      <div className="dir">{m.role}</div>
      {body}
    </div>
  )
}
