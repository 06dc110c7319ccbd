/** @module duetkit/testing */
export { renderComponent } from './render-component.js'
export type { RenderOptions, RenderedComponent } from './render-component.js'
export type { EventInit } from './fake-dom.js'
export { toHtml } from './to-html.js'
