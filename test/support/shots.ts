import { fileURLToPath } from 'node:url'

/**
 * Where end-to-end tests save the screenshots a person looks at: `test-results/shots` at the
 * repository root (git ignores it), or `$DUET_SHOTS`. Playwright creates the folder on first write.
 */
export const SHOTS_DIR = process.env.DUET_SHOTS ?? fileURLToPath(new URL('../../test-results/shots', import.meta.url))
