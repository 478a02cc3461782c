/** A small route table: `METHOD /api/things/:id` patterns, matched in order. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpError, notFound } from './http.js';

export interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  url: URL;
}

/** A handler answers itself (SSE, files) and returns nothing, or returns [status, JSON body]. */
export type Handler = (
  call: RouteCall,
) => Promise<[number, unknown] | undefined> | [number, unknown] | undefined;

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  /** The handler and parameters for a request; 404 for no such path, 405 for another method. */
  find(method: string, path: string): { handler: Handler; params: Record<string, string> } {
    const segments = path.split('/').filter(Boolean);
    let pathKnown = false;
    for (const route of this.routes) {
      const params = match(route.parts, segments);
      if (!params) continue;
      pathKnown = true;
      if (route.method === method) return { handler: route.handler, params };
    }
    if (pathKnown) throw httpError(405, { what: { key: 'web.err.method' } });
    throw notFound();
  }
}

function match(parts: string[], segments: string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const seg = segments[i]!;
    if (part.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(seg);
      } catch {
        return undefined;
      }
      params[part.slice(1)] = value;
    } else if (part !== seg) return undefined;
  }
  return params;
}
