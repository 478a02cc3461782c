/** What every route of the server shares: the context of this start (settings may change it). */
import type { AppContext } from '../context.js';
import type { Approvals } from './approvals.js';
import type { Conversations } from './conversations.js';
import type { SkillRuns } from './skill-runs.js';
import type { Uploads } from './uploads.js';

export interface WebState {
  /** The context new conversations and runs are made with (the connected folder, the language). */
  ctx: AppContext;
  readonly approvals: Approvals;
  readonly conversations: Conversations;
  readonly uploads: Uploads;
  readonly skillRuns: SkillRuns;
}
