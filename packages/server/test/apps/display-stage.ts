import type { Client } from '@modelcontextprotocol/client'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { SHELL_URI } from '../../src/apps/display-shell.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import type { HostPage } from '../../../../test/support/host/index.js'
import { connectHttp, deliverToolCall, openServerView, type RunningServe, startServe } from './display-e2e-harness.js'
import { tempDataDir } from './harness.js'

/** How `show` plays the host: what it strips from the result, a sandbox proxy, its host context. */
export interface ShowOptions {
  stripMeta?: boolean
  stripStructured?: boolean
  proxy?: boolean
  hostContext?: Record<string, unknown>
}

/**
 * What the display e2e files run against: a `duet serve` process over a temporary data folder, the SDK
 * client as the agent and another as the host's connection, one Chromium, and every host page opened.
 * Filled in before the file's tests (the fields are unset until then) and ended after them.
 */
export class DisplayStage {
  tmp!: ReturnType<typeof tempDataDir>
  serve!: RunningServe
  agent!: Client
  hostClient!: Client
  browser!: Browser
  readonly hosts: HostPage[] = []

  /** The agent calls `tool`; its view is opened in a host page (the official AppBridge) and handed the call as a host does. */
  show = async (tool: string, args: Record<string, unknown>, options: ShowOptions = {}) => {
    const result = (await this.agent.callTool({ name: tool, arguments: args })) as any
    const host = await openServerView(this.browser, this.hostClient, SHELL_URI, { proxy: options.proxy, hostContext: options.hostContext })
    this.hosts.push(host)
    await deliverToolCall(host, args, result, options)
    return { host, result, frame: host.viewFrame(), channel: result.structuredContent?.channel_id as string }
  }
}

/** Registers the calling file's hooks that set a display stage up and take it down; returns it. */
export function useDisplayStage(): DisplayStage {
  const stage = new DisplayStage()
  beforeAll(async () => {
    stage.tmp = tempDataDir()
    ;[stage.serve, stage.browser] = await Promise.all([startServe(stage.tmp.dir), launchBrowser()])
    ;[stage.agent, stage.hostClient] = await Promise.all([connectHttp(stage.serve.url, 'agent'), connectHttp(stage.serve.url, 'host')])
  }, 120_000)
  afterAll(async () => {
    for (const host of stage.hosts) await host.close()
    await stage.agent?.close()
    await stage.hostClient?.close()
    await stage.browser?.close()
    await stage.serve?.close()
    stage.tmp?.remove()
  })
  return stage
}
