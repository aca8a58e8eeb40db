// The Hono application: `/api/*` and the built single-page app on one origin.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { ServerConfig } from './config.ts';
import { securityHeaders } from './securityHeaders.ts';
import { systemInfo } from './systemInfo.ts';

export interface ApiResponse<T = unknown> {
  success: boolean;
  message?: string;
  error?: string;
  result?: T;
}

export function createApp(config: ServerConfig): Hono {
  const app = new Hono();
  app.use('*', securityHeaders(config));

  app.get('/api/ping', (c) => c.json<ApiResponse>({ success: true, message: 'pong' }));
  app.get('/api/system/info', (c) => c.json<ApiResponse>({ success: true, result: systemInfo(config) }));
  app.all('/api/*', (c) => c.json<ApiResponse>({ success: false, error: 'Resource not found.' }, 404));

  const index = path.join(config.distDir, 'index.html');
  if (existsSync(index)) {
    const html = readFileSync(index, 'utf8');
    const root = path.relative(process.cwd(), config.distDir) || '.';
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => {
          // File names carry a content hash, so they never change.
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.get('/', (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(html);
    });
  }
  return app;
}
