// The TypeScript starter, scaffolded and used as a user would (scaffold-project.js).
import { describeProject } from './scaffold-project.js'

describeProject('ts')
