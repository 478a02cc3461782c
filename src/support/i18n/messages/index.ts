// Every message group of the app. Add a group here (import, the type, the list) when a new area
// needs strings; keys are prefixed with the area (`llm.`, `cli.`, …) so groups never collide.
import { agent } from './agent.js';
import { agentskills } from './agentskills.js';
import { allow } from './allow.js';
import { batch } from './batch.js';
import { cli } from './cli.js';
import { commands } from './commands.js';
import { config } from './config.js';
import { files } from './files.js';
import { input } from './input.js';
import { install } from './install.js';
import { llm } from './llm.js';
import { mcp } from './mcp.js';
import { mcpCalls } from './mcp-calls.js';
import { models } from './models.js';
import { office } from './office.js';
import { page } from './page.js';
import { policy } from './policy.js';
import { reach } from './reach.js';
import { render } from './render.js';
import { repl } from './repl.js';
import { runs } from './runs.js';
import { safety } from './safety.js';
import { schedule } from './schedule.js';
import { script } from './script.js';
import { sessions } from './sessions.js';
import { setup } from './setup.js';
import { shell } from './shell.js';
import { skillShare } from './skill-share.js';
import { skills } from './skills.js';
import { tools } from './tools.js';
import { web } from './web.js';
import { windows } from './windows.js';

type En = typeof cli.en &
  typeof commands.en &
  typeof config.en &
  typeof llm.en &
  typeof agent.en &
  typeof tools.en &
  typeof render.en &
  typeof setup.en &
  typeof files.en &
  typeof reach.en &
  typeof skills.en &
  typeof skillShare.en &
  typeof sessions.en &
  typeof repl.en &
  typeof input.en &
  typeof safety.en &
  typeof shell.en &
  typeof models.en &
  typeof agentskills.en &
  typeof mcp.en &
  typeof mcpCalls.en &
  typeof batch.en &
  typeof runs.en &
  typeof install.en &
  typeof windows.en &
  typeof office.en &
  typeof page.en &
  typeof policy.en &
  typeof schedule.en &
  typeof script.en &
  typeof web.en &
  typeof allow.en;

const groups = [
  cli,
  commands,
  config,
  llm,
  agent,
  tools,
  render,
  setup,
  files,
  reach,
  skills,
  skillShare,
  sessions,
  repl,
  input,
  safety,
  shell,
  models,
  agentskills,
  mcp,
  mcpCalls,
  batch,
  runs,
  install,
  windows,
  office,
  page,
  policy,
  schedule,
  script,
  web,
  allow,
];

export const messages = {
  en: Object.assign({}, ...groups.map((g) => g.en)) as En,
  zh: Object.assign({}, ...groups.map((g) => g.zh)) as { [K in keyof En]: string },
};
