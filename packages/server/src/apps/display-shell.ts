import { readBuiltAsset } from '../server/built-asset.js'

/** The `ui://` URI of the display shell, fixed in the listing of every tool that shows an app. */
export const SHELL_URI = 'ui://duet/display.html'

/**
 * The display shell page: one self-contained HTML document (the Duet runtime and MCP client inlined,
 * no network, no eval), built with the package (`shell-page.ts` and `shell/main.ts`).
 */
export async function shellHtml(): Promise<string> {
  return readBuiltAsset('display-shell.html')
}
