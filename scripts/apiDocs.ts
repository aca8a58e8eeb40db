// `npm run docs:api`: writes the API table (src/core/api/apiRoutes.json for the Documentation
// page, docs/api.md) from the routes the server registers (src/server/docs/apiTable.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiMarkdown, apiRoutesJson, apiTable } from '../src/server/docs/apiTable.ts';

const root = path.resolve(import.meta.dirname, '..');
const rows = await apiTable();
writeFileSync(path.join(root, 'src/core/api/apiRoutes.json'), apiRoutesJson(rows));
writeFileSync(path.join(root, 'docs/api.md'), apiMarkdown(rows));
console.log(`${rows.length} routes: src/core/api/apiRoutes.json and docs/api.md written`);
