import { openChannelStore } from '../../src/channel/index.js'
import { tempDir } from '../channel/temp-dir.js'
import { describeChannelScope } from './channel-scope.case.js'

describeChannelScope({
  name: 'sqlite',
  async open() {
    const { dir, remove } = tempDir('duet-isolation-')
    const a = await openChannelStore({ dataDir: dir })
    const b = await openChannelStore({ dataDir: dir })
    return {
      stores: [a, b],
      done: async () => {
        await Promise.all([a.dispose(), b.dispose()])
        remove()
      },
    }
  },
})

describeChannelScope({
  name: 'memory',
  async open() {
    const a = await openChannelStore({ backend: 'memory' })
    return { stores: [a, a], done: () => a.dispose() }
  },
})
