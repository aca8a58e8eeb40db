// The browser's client of the local MCP helper (spec part 7): health with a 300 ms timeout,
// the tool list, and tool calls with a 60 s timeout. An absent helper means no tools and
// no report: every failure of the health check or the list is quiet.
import { DEFAULT_MCP_HELPER_URL, MCP_CALL_TIMEOUT_MS, MCP_HEALTH_TEXT, MCP_HEALTH_TIMEOUT_MS, type McpClient, type McpTool } from '../../../src/core/index.ts';

async function withTimeout<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  const relay = () => abort.abort();
  outer?.addEventListener('abort', relay, { once: true });
  try {
    return await fn(abort.signal);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', relay);
  }
}

export function createMcpClient(baseUrl = DEFAULT_MCP_HELPER_URL, fetchImpl: typeof fetch = (i, init) => fetch(i, init)): McpClient {
  const base = baseUrl.replace(/\/+$/, '');
  const available = async () => {
    try {
      return await withTimeout(MCP_HEALTH_TIMEOUT_MS, async (signal) => {
        const response = await fetchImpl(`${base}/`, { signal });
        return response.ok && (await response.text()) === MCP_HEALTH_TEXT;
      });
    } catch {
      return false;
    }
  };
  return {
    available,
    async tools(): Promise<McpTool[]> {
      if (!(await available())) return [];
      try {
        const response = await fetchImpl(`${base}/tool/list`);
        const body: unknown = await response.json();
        const list = Array.isArray(body) ? body : ((body as { result?: unknown })?.result ?? []);
        return (list as McpTool[]).filter((t) => typeof t?.name === 'string');
      } catch {
        return [];
      }
    },
    async call(tool, args, signal) {
      return withTimeout(
        MCP_CALL_TIMEOUT_MS,
        async (inner) => {
          const response = await fetchImpl(`${base}/tool/call`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ tool, args }),
            signal: inner,
          });
          const body = (await response.json().catch(() => ({}))) as { success?: boolean; result?: unknown; error?: string };
          if (!body.success) return `Error: ${body.error ?? `the MCP helper answered ${response.status}`}`;
          return typeof body.result === 'string' ? body.result : JSON.stringify(body.result);
        },
        signal,
      );
    },
  };
}
