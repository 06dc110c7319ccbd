import { openChannelStore } from '../../src/channel/index.js'
import { describeChannelStore } from './store.case.js'

// A memory store is one process's data, so the suite's "second process" is the same store; stores with
// their own limits are separate (the cases that use them only talk to one store).
let shared: Awaited<ReturnType<typeof openChannelStore>> | undefined
describeChannelStore('memory', async (limits) => {
  if (!limits) return (shared ??= await openChannelStore({ backend: 'memory' }))
  return openChannelStore({ backend: 'memory', limits })
})
