// What the documentation page's sections are made of: the plugins' contributions and the API
// table (generated from the server's routes: npm run docs:api), loaded once per host, and the
// two translators every section uses.
import { use, useMemo } from 'react';
import type { PluginHost, Translate } from '../../../core/host/index.ts';

export interface ApiRow {
  method: string;
  path: string;
  owner: string;
}
type Docs = [Awaited<ReturnType<PluginHost['docsSources']>>, ApiRow[]];
const docsCache = new WeakMap<PluginHost, Promise<Docs>>();

/** The plugins' documentation and the API table, loaded once per host (suspends until they have arrived). */
export function useDocsSources(host: PluginHost): Docs {
  const promise = useMemo(() => {
    if (!docsCache.has(host)) {
      docsCache.set(host, Promise.all([host.docsSources(), import('../../../core/api/apiRoutes.json').then((m) => m.default as ApiRow[])]));
    }
    return docsCache.get(host)!;
  }, [host]);
  return use(promise);
}

/** The page's own words (`t`, the shell's) and a contribution's, by its namespace (`tt`). */
export interface DocsText {
  t: Translate;
  tt: (ns: string, key: string, vars?: Record<string, string>) => string;
}
