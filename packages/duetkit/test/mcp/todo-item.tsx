import { z } from 'zod'
import type { Component } from 'duetkit'

/** A to-do item that agents may read, toggle and rename: the agent-tools tests' Collection item. */
export const TodoItem: Component<{ label: string; done: boolean }> = ({ state }) => <li className={state.done ? 'done' : 'open'}>{state.label}</li>
TodoItem.model = { TOGGLE: (s) => ({ ...s, done: !s.done }), RENAME: (s, label: string) => ({ ...s, label }) }
TodoItem.agent = {
  name: 'todo',
  read: (s) => ({ label: s.label, done: s.done }),
  actions: { TOGGLE: { description: 'Toggle' }, RENAME: { description: 'Rename', input: z.string().min(1) } },
}
