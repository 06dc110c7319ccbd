/** A recipe for agents: served by `get_recipe` and as an MCP prompt of the same name. */
export interface Recipe {
  /** kebab-case, e.g. `'bidirectional-events'`. */
  name: string
  title: string
  /** One line saying when to read it, shown by `list_recipes`. */
  description: string
  /**
   * Markdown. Every fenced code sample carries a kind after its language (```jsx duet-component,
   * ```html fragment, ```json tool-call, ```sh) so the tests can run each one the right way.
   */
  text: string
}
