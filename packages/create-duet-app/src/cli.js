import { relative } from 'node:path'
import { parseArgs as parseCommandLine } from 'node:util'
import { checkTarget, createApp } from './create.js'
import { CreateError } from './errors.js'
import { checkNotInCheckout, checkProjectName } from './project-name.js'
import { createPrompter } from './prompt.js'
import { LANGUAGES, TEMPLATES } from './templates.js'
import { duetCheckoutRoot } from './vendor.js'

export const USAGE = `Usage: create-duet-app <name | path> --template <template> [--ts | --js] [--no-install]

Creates a Duet project in ./<name>, or in <path>.

  <name>                 npm package name and folder, e.g. my-tool (in a Duet checkout: give a path)
  <path>                 the project's folder, e.g. ../my-tool or /home/me/my-tool; its last part is
                         the npm package name
  -t, --template <name>  ${Object.entries(TEMPLATES)
    .map(([name, what]) => `${name}: ${what}`)
    .join('\n                         ')}
  --ts, --js             TypeScript or JavaScript (default JavaScript)
  --no-install           write the files but skip npm install
  -h, --help             show this help

In a terminal, whatever is missing is asked for. Without one, <name> and --template are required.
Example: npm create duet-app@latest my-tool -- --template mcp-app --ts`

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  ts: { type: 'boolean' },
  js: { type: 'boolean' },
  'no-install': { type: 'boolean' },
  template: { type: 'string', short: 't' },
}

/**
 * Parses the command line (node:util's parseArgs); throws `USAGE` naming the first problem.
 * @param {string[]} argv
 * @returns {{ name?: string, template?: string, language?: 'js'|'ts', install: boolean, help: boolean }}
 */
export function parseArgs(argv) {
  const usage = (message, cause) => {
    throw new CreateError('USAGE', message, { usage: USAGE }, cause && { cause })
  }
  let parsed
  try {
    parsed = parseCommandLine({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (err) {
    // parseArgs says what is wrong in its words; these say it in the scaffolder's, naming the fix.
    const flag = /'(-[^' ,]+)/.exec(err.message)?.[1] ?? ''
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') usage(`unknown option ${flag}`, err)
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /template/.test(err.message))
      usage(`--template needs a template name: ${Object.keys(TEMPLATES).join(', ')}`, err)
    usage(err.message, err)
  }
  const { values, positionals } = parsed
  if (values.ts && values.js) usage('give one of --ts or --js, not both')
  if (values.template?.startsWith('-')) usage(`--template needs a template name: ${Object.keys(TEMPLATES).join(', ')}`)
  if (positionals.length > 1) usage(`one project name only, got '${positionals[0]}' and '${positionals[1]}'`)
  return {
    install: values['no-install'] !== true,
    help: values.help === true,
    ...(positionals[0] !== undefined && { name: positionals[0] }),
    ...(values.template !== undefined && { template: values.template }),
    ...(values.ts ? { language: 'ts' } : values.js ? { language: 'js' } : {}),
  }
}

function checkTemplate(template) {
  if (!Object.hasOwn(TEMPLATES, template))
    throw new CreateError('NOT_FOUND', `Unknown template '${template}'. Templates: ${Object.keys(TEMPLATES).join(', ')}.`, { template })
  return template
}

function checkNewProject(name, cwd) {
  const project = checkProjectName(name, cwd)
  checkNotInCheckout(project, duetCheckoutRoot())
  checkTarget(project.dir)
  return project
}

/**
 * The `create-duet-app` command. Returns the exit code: 0 done, 1 failed, 2 bad command line,
 * 130 cancelled at a question.
 * @param {string[]} argv
 * @param {{ stdin?: NodeJS.ReadableStream, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream, interactive?: boolean, cwd?: string }} [io]
 */
export async function main(argv, io = {}) {
  const { stdin = process.stdin, stdout = process.stdout, stderr = process.stderr, cwd = process.cwd() } = io
  const interactive = io.interactive ?? (process.stdin.isTTY === true && process.stdout.isTTY === true)
  let prompter
  try {
    const args = parseArgs(argv)
    if (args.help) {
      stdout.write(`${USAGE}\n`)
      return 0
    }
    // What was given is checked before anything is asked.
    if (args.name !== undefined) checkNewProject(args.name, cwd)
    if (args.template !== undefined) checkTemplate(args.template)
    const missing = [args.name === undefined && '<name>', args.template === undefined && '--template'].filter(Boolean)
    if (missing.length > 0 && !interactive) {
      throw new CreateError('USAGE', `missing ${missing.join(' and ')} (no terminal to ask on)`, { usage: USAGE })
    }

    let { name, template, language } = args
    if (interactive && (name === undefined || template === undefined || language === undefined)) {
      prompter = createPrompter(stdin, stdout)
      if (name === undefined)
        name = await prompter.ask('Project name', 'my-tool', (answer) => {
          checkNewProject(answer, cwd)
          return answer
        })
      if (template === undefined) template = await prompter.ask(`Template: ${Object.keys(TEMPLATES).join(', ')}`, 'mcp-app', checkTemplate)
      if (language === undefined) {
        language = await prompter.ask('Use TypeScript? y/n', 'n', (answer) => {
          if (/^(y|yes)$/i.test(answer)) return 'ts'
          if (/^(n|no)$/i.test(answer)) return 'js'
          throw new Error('Answer y or n.')
        })
      }
      prompter.close()
    }
    language ??= 'js'

    const { dir, installed } = await createApp({ name, template, language, install: args.install, cwd, log: (line) => stdout.write(`${line}\n`) })
    const where = relative(cwd, dir) || '.'
    name = checkProjectName(name, cwd).name
    const label = LANGUAGES[language].label
    stdout.write(
      `\nCreated ${name} (${template}, ${label}) in ${dir}\n\nNext:\n  cd ${where}\n${installed ? '' : '  npm install\n'}` +
        '  npm start     build the view and serve MCP on http://localhost:3001/mcp\n' +
        '  npm test      test the view and the server, no host needed\n\n' +
        'README.md says how to connect it to a host (MCPJam, Claude Desktop, VS Code).\n',
    )
    return 0
  } catch (err) {
    prompter?.close()
    if (!(err instanceof CreateError)) throw err
    stderr.write(`create-duet-app: ${err.message}\n`)
    if (err.code === 'USAGE') {
      stderr.write(`\n${USAGE}\n`)
      return 2
    }
    return err.code === 'ABORTED' ? 130 : 1
  }
}
