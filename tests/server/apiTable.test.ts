// One source for the API table (issue 21): the Documentation page's table
// (src/core/api/apiRoutes.json) and docs/api.md are what the server's routes are, each route
// with its plugin; `npm run docs:api` writes them, and this fails while they differ.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiMarkdown, apiRoutesJson, apiTable, type ApiTableRow } from '../../src/server/docs/apiTable.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the API table', () => {
  let rows: ApiTableRow[];

  it('is generated from the routes the server registers (npm run docs:api)', async () => {
    rows = await apiTable();
    expect(readFileSync(path.join(ROOT, 'src/core/api/apiRoutes.json'), 'utf8')).toBe(apiRoutesJson(rows));
    expect(readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8')).toBe(apiMarkdown(rows));
  }, 60_000);

  it('names the plugin of each route, and describes each one in English', () => {
    expect(rows.find((r) => r.path === '/api/role/{name}')).toEqual({ method: 'GET', path: '/api/role/{name}', owner: 'role' });
    expect(rows.find((r) => r.path === '/api/ping')?.owner).toBe('core');
    for (const row of rows) expect(apiMarkdown([row]), `${row.method} ${row.path}`).not.toMatch(/\| {2}\|\n$/);
  });
});
