import { use, useEffect, useMemo, useRef } from 'react';
import type { BackPage, PageMount, PluginHost } from '../../core/host/index.ts';
import { useHost } from '../context.tsx';

const mounts = new WeakMap<PluginHost, Map<BackPage, Promise<PageMount | undefined>>>();

/** A back-view page a plugin renders with plain DOM (ctx.page), in an element of ours. */
export function PluginPage({ page, focus, testid }: { page: BackPage; focus?: string; testid: string }) {
  const host = useHost();
  const pending = useMemo(() => {
    const byPage = mounts.get(host) ?? new Map<BackPage, Promise<PageMount | undefined>>();
    mounts.set(host, byPage);
    if (!byPage.has(page)) byPage.set(page, host.pageMount(page).catch(() => undefined));
    return byPage.get(page)!;
  }, [host, page]);
  const mount = use(pending);
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!mount || !element.current) return undefined;
    return mount(element.current, { focus });
  }, [mount, focus]);
  return <div className="page plugin-page" data-testid={testid} ref={element} />;
}
