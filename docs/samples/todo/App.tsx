// The to-do view: the tool's result fills the list; the user adds and ticks items; the model is told.
import { component, type NoProps } from 'duetkit'
import type { McpDrivers } from 'duetkit/mcp'
import type { TodoServer } from './server'

interface Todo {
  text: string
  done: boolean
}
export interface State {
  title: string
  todos: Todo[]
  draft: string
}

export const App = component<State, NoProps, McpDrivers<TodoServer, 'show_todos'>>()(
  function TodoList({ state }) {
    return (
      <main>
        <h1>{state.title || 'To do'}</h1>
        <ul>
          {state.todos.map((todo, index) => (
            <li key={todo.text}>
              <label>
                <input type="checkbox" className="done" checked={todo.done} data={{ index: String(index) }} /> {todo.text}
              </label>
            </li>
          ))}
        </ul>
        <input className="draft" value={state.draft} placeholder="Something else" />
        <button type="button" className="add" disabled={!state.draft.trim()}>
          Add
        </button>
      </main>
    )
  },
  {
    initialState: { title: '', todos: [], draft: '' },
    intent: ({ DOM, MCP }) => ({
      RESULT: MCP.select('tool-result'), // the show_todos result the host passes the view
      DRAFT: DOM.input('.draft').value(), // every keystroke, as the field's value
      ADD: DOM.click('.add'),
      TOGGLE: DOM.change('.done').data('index', Number), // the row's data-index, as a number
    }),
    model: {
      RESULT: (state, result) => ({ ...state, title: result.structuredContent?.title ?? '', todos: result.structuredContent?.todos ?? [] }),
      DRAFT: (state, draft) => ({ ...state, draft }),
      ADD: {
        STATE: (state) => ({ ...state, todos: [...state.todos, { text: state.draft.trim(), done: false }], draft: '' }),
        // The model reads this on its next turn: what is left to do.
        MCP: (state) => ({ updateModelContext: { left: [...state.todos.filter((t) => !t.done).map((t) => t.text), state.draft.trim()] } }),
      },
      TOGGLE: {
        STATE: (state, index) => ({ ...state, todos: state.todos.map((t, i) => (i === index ? { ...t, done: !t.done } : t)) }),
        MCP: (state, index) => ({ updateModelContext: { left: state.todos.filter((t, i) => (i === index ? t.done : !t.done)).map((t) => t.text) } }),
      },
    },
  },
)
