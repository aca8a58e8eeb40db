import { describe, expect, it } from 'vitest';
import { frameBatcher } from './frameBatcher.ts';

const frame = () => new Promise((r) => setTimeout(r, 40));

describe('frameBatcher', () => {
  it('applies once per frame however often it is scheduled, and at once on flush', async () => {
    let applied = 0;
    const batch = frameBatcher(() => applied++);
    batch.schedule();
    batch.schedule();
    batch.schedule();
    expect(applied).toBe(0);
    await frame();
    expect(applied).toBe(1);
    batch.flush();
    expect(applied).toBe(2);
  });

  it('drops a frame still due once stopped: the final output set after the stream stays', async () => {
    let applied = 0;
    const batch = frameBatcher(() => applied++);
    batch.schedule();
    batch.stop();
    await frame();
    expect(applied).toBe(0);
    batch.schedule();
    batch.flush();
    await frame();
    expect(applied).toBe(0);
  });
});
