/** The MCP servers the end-to-end tests start from config.yaml. */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/** The official filesystem server (the npm package @modelcontextprotocol/server-filesystem). */
export const FS_SERVER = join(
  resolve(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
    '..',
  ),
  'dist/index.js',
);
/** A small SDK server that crashes on demand. */
export const CRASHY = resolve(import.meta.dirname, '../fixtures/mcp/crashy.mjs');
/** A small SDK server with 150 tools (MANY_TOOLS), one with a Pydantic-style schema. */
export const MANY = resolve(import.meta.dirname, '../fixtures/mcp/many.mjs');
/** A small SDK server that takes SLOW_MS to start; its tool tells the proxy variables it got. */
export const SLOW = resolve(import.meta.dirname, '../fixtures/mcp/slow.mjs');
/** A small SDK server whose tools are annotated: `query` read-only, `drop_table` destructive. */
export const ANNOTATED = resolve(import.meta.dirname, '../fixtures/mcp/annotated.mjs');
/** A small SDK server with resources (notes://today, notes://big, a template), a resource link and a prompt. */
export const NOTES = resolve(import.meta.dirname, '../fixtures/mcp/notes.mjs');
/** A legacy HTTP+SSE server and a plain web page, started in the test's process. */
export const LEGACY_SSE = resolve(import.meta.dirname, '../fixtures/mcp/legacy-sse.mjs');
/** A remote MCP server behind OAuth (with its authorization server), and a fake browser. */
export const OAUTH_SERVER = resolve(import.meta.dirname, '../fixtures/mcp/oauth-server.mjs');
