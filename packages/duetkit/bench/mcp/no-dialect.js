// The driver's Apps SDK adapter reduced to "never such a host": what a view would weigh without the
// dialect, the anchor the dialect's cost is measured against (bench/mcp-dialect.js).
export const openAiHost = () => undefined
export const bridgeOf = () => undefined
export const callOpenAiExtra = async () => {
  throw new Error('no Apps SDK host')
}
