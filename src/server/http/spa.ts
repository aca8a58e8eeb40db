// The built single-page app on the API's origin: hashed assets cached for good, the page and
// the service worker asked anew each time (a new build's worker replaces the old one).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppEnv } from '../../core/index.ts';

export function serveSpa(app: Hono<AppEnv>, distDir: string): void {
  const index = path.join(distDir, 'index.html');
  if (existsSync(index)) {
    const html = readFileSync(index, 'utf8');
    const root = path.relative(process.cwd(), distDir) || '.';
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
    app.use('/icons/*', serveStatic({ root }));
    for (const page of ['/', '/index.html']) {
      app.get(page, (c) => {
        c.header('Cache-Control', 'no-cache');
        return c.html(html);
      });
    }
    // The service worker and the web app manifest (vite.config.ts): always asked anew, so a new
    // build's worker replaces the old one on the next visit.
    for (const [file, type] of [
      ['sw.js', 'text/javascript; charset=utf-8'],
      ['manifest.webmanifest', 'application/manifest+json'],
    ] as const) {
      const full = path.join(distDir, file);
      if (!existsSync(full)) continue;
      const body = readFileSync(full);
      app.get(`/${file}`, (c) => {
        c.header('Cache-Control', 'no-cache');
        c.header('Content-Type', type);
        return c.body(body);
      });
    }
  }
}
