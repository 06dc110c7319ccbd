import { component } from 'duetkit'
import type { ServerView } from './api.js'

/** Above the stage: each server that is down, and that duet dev keeps trying it. The page hands it SERVERS. */
export const ServerBanner = component<{ servers: ServerView[] }, Record<string, never>, Record<string, never>, { SERVERS: ServerView[] }>()(
  function ServerBanner({ state }) {
    return (
      <div data-testid="server-banner">
        {state.servers
          .filter((s) => s.status === 'error')
          .map((s) => (
            <div key={s.id} className="error-banner">{`Server ${s.label} is unreachable: ${s.error}. duet dev keeps retrying.`}</div>
          ))}
      </div>
    )
  },
  { initialState: { servers: [] }, model: { SERVERS: (_state, servers) => ({ servers }) } },
)
