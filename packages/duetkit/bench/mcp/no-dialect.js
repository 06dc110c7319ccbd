// The driver's look-up of an Apps SDK host reduced to "never such a host": what a view would weigh
// without the dialect, the anchor the dialect's cost is measured against (bench/mcp-dialect.js).
export const appsSdkHost = () => undefined
