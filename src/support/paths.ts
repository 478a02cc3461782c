import { join } from 'node:path';
import envPaths from 'env-paths';

/** Where zhi keeps its files. `ZHI_HOME` puts everything under one root (used by tests). */
export interface AppPaths {
  configDir: string;
  configFile: string;
  skillsDir: string;
  dataDir: string;
  sessionsDir: string;
  historyFile: string;
  usageLedger: string;
  trustFile: string;
  /** What zhi learned about models outside its registry (llm/capabilities.ts). */
  capabilitiesFile: string;
  logDir: string;
}

/** Where scheduled jobs and their run records live (`zhi schedule`). */
export function schedulesDir(dataDir: string): string {
  return join(dataDir, 'schedules');
}

export function appPaths(env: NodeJS.ProcessEnv = process.env): AppPaths {
  const home = env.ZHI_HOME?.trim();
  if (home) {
    return build(home, home, join(home, 'logs'));
  }
  const p = envPaths('zhi', { suffix: '' });
  return build(p.config, p.data, p.log);
}

function build(configDir: string, dataDir: string, logDir: string): AppPaths {
  return {
    configDir,
    configFile: join(configDir, 'config.yaml'),
    skillsDir: join(configDir, 'skills'),
    dataDir,
    sessionsDir: join(dataDir, 'sessions'),
    historyFile: join(dataDir, 'history'),
    usageLedger: join(dataDir, 'usage.jsonl'),
    trustFile: join(dataDir, 'trusted-skills.json'),
    capabilitiesFile: join(dataDir, 'model-capabilities.json'),
    logDir,
  };
}
