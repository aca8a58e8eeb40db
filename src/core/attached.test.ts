import { describe, expect, it } from 'vitest';
import { AttachedMarkers } from './attached.ts';
import type { PluginManifest } from './contract.ts';
import { held, stillHeld } from './heldMarkers.ts';

describe('markers an attach effect put into the input', () => {
  it('come back after a command typed in their place, and are gone once a question was sent', () => {
    const attached = new AttachedMarkers();
    attached.add('+page[https://a.example/]');
    attached.add('+page[https://a.example/]');
    expect(attached.after(':login ada pw', false)).toEqual(['+page[https://a.example/]']);
    // A command that carried it (nothing to put back), then a question without it: dropped.
    expect(attached.after(':x +page[https://a.example/]', false)).toEqual([]);
    expect(attached.after('a question', true)).toEqual([]);
    expect(attached.after(':login ada pw', false)).toEqual([]);
  });

  it('go at the end of the input, each once, a space between', () => {
    expect(AttachedMarkers.into('', ['+page[x]'])).toBe('+page[x] ');
    expect(AttachedMarkers.into('typed  ', ['+page[x]', '+page[y]'])).toBe('typed +page[x] +page[y] ');
    expect(AttachedMarkers.into('+page[x] typed', ['+page[x]'])).toBe('+page[x] typed');
  });

  it('are held in the tab while in the input, for a reload, and go back only where the plugin declaring them says they still hold', async () => {
    const tab = new Map<string, string>();
    const storage = { getItem: (k: string) => tab.get(k) ?? null, setItem: (k: string, v: string) => void tab.set(k, v), removeItem: (k: string) => void tab.delete(k) };
    const attached = new AttachedMarkers(storage);
    attached.add('+page[https://a.example/]');
    attached.add('+page[https://b.example/]');
    // One no plugin declares: nothing could tell whether it holds, so it does not go back.
    attached.add('+other[x]');
    const manifests = [{ id: 'general' }, { id: 'web', markers: ['+page['] }] as unknown as PluginManifest[];
    const asked: [string, string[]][] = [];
    const back = await stillHeld(new AttachedMarkers(storage).held(), manifests, async (plugin, markers) => {
      asked.push([plugin, markers]);
      return markers.filter((m) => m.includes('a.example'));
    });
    expect(asked).toEqual([['web', ['+page[https://a.example/]', '+page[https://b.example/]']]]);
    expect(back).toEqual(['+page[https://a.example/]']);
    // A question took them: none is held any longer, and no plugin is asked.
    attached.after('a question', true);
    expect(await stillHeld(attached.held(), manifests, async () => { throw new Error('not asked'); })).toEqual([]);
    // What the tab holds is read with care: junk and too many are left out.
    expect(held(JSON.stringify([42, null, { marker: 7 }, ...Array.from({ length: 30 }, (_, i) => `+page[${i}]`)]))).toHaveLength(20);
    expect(held('{not json')).toEqual([]);
  });
});
