import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

/**
 * Where Duet keeps its files: `explicit` if given, else `$DUET_DATA_DIR`, else the per-user data
 * folder of the OS (`$XDG_DATA_HOME/duet` or `~/.local/share/duet` on Linux,
 * `~/Library/Application Support/duet` on macOS, `%LOCALAPPDATA%\duet` on Windows).
 * Always returns an absolute path; the folder is created by whoever writes into it.
 */
export function resolveDataDir(explicit?: string): string {
  const chosen = nonEmpty(explicit) ?? nonEmpty(process.env.DUET_DATA_DIR)
  if (chosen) return resolve(chosen)
  const home = homedir()
  switch (process.platform) {
    case 'win32':
      return join(nonEmpty(process.env.LOCALAPPDATA) ?? join(home, 'AppData', 'Local'), 'duet')
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'duet')
    default: {
      // The XDG spec says relative values are invalid and must be ignored.
      const xdg = nonEmpty(process.env.XDG_DATA_HOME)
      return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'duet')
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined
}
