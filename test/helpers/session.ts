import { type OpenSessionOptions, openSession } from '../../src/agent/sessions/recorder.js';
import { PLATFORMS } from '../../src/llm/platforms.js';

/** A REPL session file in `dir`, for glm-5 on BigModel, opened from `dir`; `o` changes any of it. */
export function openTestSession(dir: string, o: Partial<OpenSessionOptions> = {}) {
  return openSession({
    kind: 'repl',
    sessionsDir: dir,
    cwd: dir,
    model: 'glm-5',
    platform: PLATFORMS.bigmodel,
    ...o,
  });
}
