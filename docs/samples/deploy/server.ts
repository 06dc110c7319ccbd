// A server behind an OAuth issuer: every call needs a valid access token, and `refund` also the
// `orders:write` scope. Each user (the token's subject) gets their own data and limits.
import * as z from 'zod'
import { createAppServer } from '@duetkit/server'

export const app = createAppServer({
  name: 'shop',
  version: '1.0.0',
  auth: { issuer: 'https://id.example.com/realms/main', resource: 'https://mcp.example.com/mcp' },
}).appTool(
  'refund',
  {
    description: 'Refund an order',
    inputSchema: { order: z.string() },
    scopes: ['orders:write'],
    view: { file: new URL('./dist/index.html', import.meta.url) },
  },
  async ({ order }) => ({ content: [{ type: 'text', text: `Refunded ${order}` }] }),
)
