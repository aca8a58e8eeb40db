// Benchmark B3: opening a session of 1,000 logs in Chromium (`:session attach <id>` until its
// log table is painted), beside an everything-mounted table of the same rows in the same page.
import path from 'node:path';
import { createApiClient } from '../src/core/index.ts';
import { buildApp } from './initialLoad.ts';
import { cookieFetch } from '../tests/harness/shellTester.ts';
import { launchBrowser, startServer } from '../tests/e2e/support.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const LOGS = 1000;
const SESSION = 1_830_000_000_000;

export async function runLongSession(): Promise<{ oursMs: number; baselineMs: number; rows: number }> {
  const dist = mkdtempSync(path.join(tmpdir(), 'shellchat-b3-'));
  await buildApp(dist);
  const server = await startServer({ SHELLCHAT_DIST: dist });
  const browser = await launchBrowser();
  try {
    // Seed 1,000 logs as an anonymous visitor (owned through the device cookie).
    const jar = cookieFetch();
    const api = createApiClient({ baseUrl: server.url, fetch: jar });
    const text = (i: number, n: number) => `Log ${i}: ${'lorem ipsum dolor sit amet '.repeat(n)}`;
    for (let i = 0; i < LOGS; i++) {
      await api.post('/api/log/add', { session: SESSION, input: text(i, 3), output: text(i, 30), model: 'bench' });
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'device', value: jar.cookies.get('device')!, url: server.url }]);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=input]');
    // Warm up the command runtime and the session plugin.
    await page.getByTestId('input').fill(':session attach 1830000000000');
    await page.getByTestId('submit').click();
    await page.waitForSelector('[data-testid=output] tbody tr');
    const measure = async (): Promise<number> =>
      page.evaluate(async (line) => {
        const input = document.querySelector<HTMLTextAreaElement>('[data-testid=input]')!;
        const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
        document.querySelector('[data-testid=output]')!.setAttribute('data-bench', '');
        setter.call(input, line);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const started = performance.now();
        document.querySelector<HTMLButtonElement>('[data-testid=submit]')!.click();
        await new Promise<void>((resolve) => {
          const check = () => {
            const rows = document.querySelectorAll('[data-testid=output] .out-table[data-rows] tbody tr').length;
            if (rows) requestAnimationFrame(() => resolve());
            else requestAnimationFrame(check);
          };
          check();
        });
        return performance.now() - started;
      }, `:session attach ${SESSION}`);
    const ours: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByTestId('input').fill(':clear');
      await page.getByTestId('submit').click();
      ours.push(await measure());
    }
    // The baseline: the same rows, every one of them mounted, in the same page.
    const baseline: number[] = [];
    for (let i = 0; i < 5; i++) {
      baseline.push(
        await page.evaluate(async ({ count, make }) => {
          const started = performance.now();
          const table = document.createElement('table');
          const body = table.createTBody();
          for (let r = 0; r < count; r++) {
            const row = body.insertRow();
            for (const cell of [String(r), make.replace('#', String(r)), make.replace('#', String(r)).repeat(10)]) row.insertCell().textContent = cell;
          }
          document.querySelector('[data-testid=output]')!.append(table);
          await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
          const elapsed = performance.now() - started;
          table.remove();
          return elapsed;
        }, { count: LOGS, make: 'Log #: lorem ipsum dolor sit amet lorem ipsum dolor sit amet' }),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows = await page.locator('[data-testid=output] .out-table[data-rows]').getAttribute('data-rows');
    await context.close();
    return { oursMs: median(ours), baselineMs: median(baseline), rows: Number(rows) };
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.main) {
  const r = await runLongSession();
  console.log(`long session: ${r.rows} logs opened in ${r.oursMs.toFixed(0)} ms (target <= 150 ms); everything-mounted baseline ${r.baselineMs.toFixed(0)} ms`);
}
