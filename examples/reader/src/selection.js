// Reads what the user selected in the text. Kept apart from the component so the view stays pure
// and this one browser-specific step can be tested against a real DOM selection.

/** Longest quote sent to the agent; a longer selection is cut, the passage goes along whole anyway. */
export const MAX_QUOTE = 600

function passageOf(node) {
  const element = node && node.nodeType === 1 ? node : node?.parentElement
  return element?.closest?.('.passage') ?? null
}

/**
 * The selection inside one passage as `{ paragraph, quote }`, or null when nothing is selected or
 * the selection spans passages (questions are about one passage at a time).
 * @param {Event} event a mouseup or keyup inside the text
 */
export function readSelection(event) {
  const doc = event?.target?.ownerDocument
  const selection = doc?.getSelection?.()
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null
  const quote = selection.toString().replace(/\s+/g, ' ').trim()
  const passage = passageOf(selection.anchorNode)
  if (!quote || !passage || passage !== passageOf(selection.focusNode)) return null
  return { paragraph: passage.dataset.paragraph, quote: quote.slice(0, MAX_QUOTE) }
}
