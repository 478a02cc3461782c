/** Every route module of the server, in one list (server.ts adds them to its table). */

import { chatRoutes } from './api-chat.js';
import { infoRoutes } from './api-info.js';
import { outputRoutes } from './api-outputs.js';
import { settingsRoutes } from './api-settings.js';
import { skillRoutes } from './api-skills.js';
import { statusRoutes } from './api-status.js';
import { openApiDocument } from './openapi.js';
import type { Routes } from './server.js';
import { uploadRoutes } from './uploads.js';

export const ROUTES: Routes[] = [
  (router) => router.add('GET', '/openapi.json', () => [200, openApiDocument(__ZHI_VERSION__)]),
  statusRoutes,
  settingsRoutes,
  chatRoutes,
  uploadRoutes,
  outputRoutes,
  skillRoutes,
  infoRoutes,
];
