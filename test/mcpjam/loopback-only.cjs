// Preloaded (`node --require`) into MCPJam Inspector under test: every outgoing connection to an
// address other than loopback fails at once (ECONNREFUSED), so its telemetry and cloud calls never
// leave the machine and the test does not depend on the network. Loopback (the MCP servers under
// test, the dead CONVEX_* port) is untouched.
const net = require('node:net')

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '::ffff:127.0.0.1'])
const refused = []

const original = net.Socket.prototype.connect
net.Socket.prototype.connect = function connect(...args) {
  const first = args[0]
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined }
  // A path (a Unix socket) is local; a missing host means localhost.
  const host = options.path === undefined ? (options.host ?? 'localhost') : 'localhost'
  if (!LOOPBACK.has(String(host).toLowerCase()) && !String(host).startsWith('127.')) {
    if (!refused.includes(host)) {
      refused.push(host)
      process.stderr.write(`[loopback-only] refused a connection to ${host}\n`)
    }
    const err = Object.assign(new Error(`connect ECONNREFUSED ${host} (loopback-only test host)`), { code: 'ECONNREFUSED', host })
    process.nextTick(() => this.destroy(err))
    return this
  }
  return original.apply(this, args)
}
