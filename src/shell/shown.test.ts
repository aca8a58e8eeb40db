// What the output area shows of each submitted line (shown.ts): answers in the order typed, and
// the working line of a command that has not answered after the delay (in Chromium:
// tests/e2e/working.test.ts).
import { describe, expect, it } from 'vitest';
import { WORKING_DELAY_MS, type Output } from '../core/host/index.ts';
import type { ShellState } from './controller.ts';
import { ShownOutputs } from './shown.ts';
import { StateStore } from './stateStore.ts';

const DELAY = WORKING_DELAY_MS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (t: string): Output => ({ kind: 'text', text: t });

function area() {
  const state = new StateStore({ outputs: [text('last result')], notice: '', working: '' } as unknown as ShellState);
  const shown = new ShownOutputs(state);
  const seen = () => ({ working: state.get().working, outputs: state.get().outputs.map((o) => (o.kind === 'text' ? o.text : o.kind)) });
  return { shown, seen };
}

describe('the working line', () => {
  it('shows after the delay and goes when the answer replaces it', async () => {
    const { shown, seen } = area();
    const line = shown.next();
    shown.running(line, ':store search');
    await sleep(DELAY / 4);
    expect(seen().working).toBe('');
    await sleep(DELAY * 2);
    expect(seen()).toEqual({ working: ':store search', outputs: ['last result'] });
    shown.show([text('found')], '', line);
    shown.finished(line);
    expect(seen()).toEqual({ working: '', outputs: ['found'] });
  });

  it('never shows for a command that answers within the delay', async () => {
    const { shown, seen } = area();
    const line = shown.next();
    shown.running(line, ':theme');
    shown.show([text('Theme set to dark.')], '', line);
    shown.finished(line);
    await sleep(DELAY * 2);
    expect(seen()).toEqual({ working: '', outputs: ['Theme set to dark.'] });
  });

  it("gives way to a command's own progress, before or after it shows", async () => {
    const { shown, seen } = area();
    const first = shown.next();
    shown.running(first, ':web');
    shown.show([text('Searching the web...')], '');
    await sleep(DELAY * 2);
    expect(seen()).toEqual({ working: '', outputs: ['Searching the web...'] });
    const second = shown.next();
    shown.running(second, ':session import');
    await sleep(DELAY * 2);
    expect(seen().working).toBe(':session import');
    shown.show([text('Importing export.zip: 40%')], '');
    expect(seen()).toEqual({ working: '', outputs: ['Importing export.zip: 40%'] });
  });

  it('goes when a command ends with nothing to show, leaving the last result', async () => {
    const { shown, seen } = area();
    const line = shown.next();
    shown.running(line, ':voice use');
    await sleep(DELAY * 2);
    shown.finished(line);
    expect(seen()).toEqual({ working: '', outputs: ['last result'] });
  });

  it("is the latest command's: an earlier one answering late goes below, and leaves it showing", async () => {
    const { shown, seen } = area();
    const slow = shown.next();
    shown.running(slow, ':voice use');
    const later = shown.next();
    shown.running(later, ':model ls');
    await sleep(DELAY * 2);
    expect(seen().working).toBe(':model ls');
    shown.finished(slow);
    expect(seen().working).toBe(':model ls');
    shown.show([text('models')], '', later);
    shown.finished(later);
    shown.show([text('Voice set.')], '', slow);
    expect(seen()).toEqual({ working: '', outputs: ['models', 'Voice set.'] });
  });
});
