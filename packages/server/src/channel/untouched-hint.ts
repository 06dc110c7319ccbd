/**
 * What agent-side calls (`notify_ui`, `poll_agent_messages`, `duet wait`) say about a channel no app has used
 * and no display tool or open_channel created: most often a mistyped id the agent picked, which would otherwise
 * just stay silent (an empty poll, a wait that times out). Kept apart from the tools so `duet wait` loads no SDK.
 */
export function untouchedText(id: string): string {
  return `No app has touched channel '${id}' yet and no display tool or open_channel created it. If the app's view is not running yet this is expected (it gets your messages when it starts polling); otherwise ${TYPO_HINT}`
}

/** The typo half of the hints: said wherever an id the agent passed may simply be mistyped. */
export const TYPO_HINT = 'the id may be mistyped (ids are case-sensitive): use the channel_id a display tool or open_channel returned.'
