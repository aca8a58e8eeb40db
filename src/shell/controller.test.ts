// The shell controller with the real plugin host (the harness's): what a line that is not sent
// says, and what stays in the box.
import mitt from 'mitt';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES, type Output, type ShellEvents } from '../core/host/index.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { ShellController } from './controller.ts';

async function shell() {
  const tester = await createShellTester({ plugins: ['general'] });
  const controller = new ShellController({
    settings: tester.settings,
    events: mitt<ShellEvents>(),
    t: tester.i18n.t,
    loadHost: async () => tester.host,
  });
  const shown = () => controller.state.get().outputs.map((o: Output) => (o.kind === 'error' || o.kind === 'text' ? o.text : o.kind));
  return { controller, shown };
}

describe('a line with a failed upload marker (issue 33, item 20)', () => {
  it("says each marker's own reason, not 'URL must start with http or https.', and keeps the line", async () => {
    const { controller, shown } = await shell();
    controller.setInput('What is in these? ');
    await controller.attach([new File([new Uint8Array(UPLOAD_MAX_BYTES + 1)], 'big.pdf'), new File(['MZ'], 'tool.exe')]);
    const line = controller.state.get().input;
    expect(line).toBe(
      'What is in these? +file[big.pdf (failed: file size exceeds 10MB)] ' +
        '+file[tool.exe (Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.)]',
    );
    await controller.submit();
    expect(shown()).toEqual([
      'big.pdf: failed: file size exceeds 10MB',
      'tool.exe: Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.',
    ]);
    expect(controller.state.get().notice).toBe("Remove the failed file's marker from the input, or attach the file again, then send.");
    expect(controller.state.get().input).toBe(line);
  });

  it('forgets a marker taken out of the line, and a marker typed by hand is still no URL', async () => {
    const { controller, shown } = await shell();
    await controller.attach([new File(['MZ'], 'tool.exe')]);
    controller.setInput('plain question +file[tool.exe (typed by hand)]');
    await controller.submit();
    expect(shown()).toEqual(['URL must start with http or https.']);
    expect(controller.state.get().notice).toBe('');
  });
});

describe('Enter while an answer streams (issue 33, item 21)', () => {
  it('sends nothing, keeps the text, and says why until the answer ends; :stop still stops', async () => {
    const { controller, shown } = await shell();
    controller.state.set({ generating: true });
    controller.setInput('And in Rust?');
    await controller.submit();
    expect(controller.state.get()).toMatchObject({ input: 'And in Rust?', busyRefused: true, generating: true, runs: 0 });
    // Ctrl+C stops and keeps the text; the next Enter sends it, and the note goes.
    controller.interrupt();
    expect(controller.state.get()).toMatchObject({ input: 'And in Rust?', generating: false });
    await controller.submit();
    // (This host has no chat: the question was sent and answered so.)
    expect(shown()).toEqual(['Chat is not installed on this server yet: type :help to see the commands.']);
    expect(controller.state.get()).toMatchObject({ busyRefused: false, runs: 1 });
    // `:stop` is still taken while generating.
    controller.state.set({ generating: true });
    await controller.submit(':stop');
    expect(controller.state.get()).toMatchObject({ generating: false, runs: 2 });
  });
});


describe('what surrounds an answer comes back with it (issue 35, item 1)', () => {
  it("a 'result' effect shows its model line, pictures, stats and self-evaluation; a log's has none of the last answer's", async () => {
    const { controller, shown } = await shell();
    const info = { model: 'm', raw: 'Hi', session: 3 };
    const stats = { tokens: '5' };
    const evaluation = { score: 80, reason: 'clear' };
    controller.show([{ kind: 'effect', effect: { type: 'result', previews: ['/a.png'], info, stats, evaluation } }, { kind: 'markdown', text: 'Hi' }]);
    expect(controller.state.get()).toMatchObject({ previews: ['/a.png'], modelInfo: info, stats, evaluation });
    expect(shown()).toEqual(['markdown']);
    // A log walked back to (Left) brings its own model line and pictures, and no stats.
    controller.show([{ kind: 'effect', effect: { type: 'result', previews: [], info: { ...info, raw: 'Before' } } }, { kind: 'markdown', text: 'Before' }]);
    expect(controller.state.get()).toMatchObject({ previews: [], modelInfo: { ...info, raw: 'Before' }, stats: null, evaluation: null });
  });
});

describe('the markers in the input, held in the tab for a reload or a sign-on (walk: `:web open`, then `:login sso`)', () => {
  it("are held in that tab while in the input, back after a command, and let go once a question took them", async () => {
    const tab = new Map<string, string>();
    const storage = { getItem: (k: string) => tab.get(k) ?? null, setItem: (k: string, v: string) => void tab.set(k, v), removeItem: (k: string) => void tab.delete(k) };
    const tester = await createShellTester({ plugins: ['general'] });
    const controller = new ShellController({ settings: tester.settings, events: mitt<ShellEvents>(), t: tester.i18n.t, loadHost: async () => tester.host, tab: storage });
    controller.show([{ kind: 'effect', effect: { type: 'attach', marker: '+page[https://a.example/]' } }]);
    expect(controller.attached.held()).toBe('["+page[https://a.example/]"]');
    // Deleted to type a command, it comes back after it, and is still held (a reload, or the page
    // left for a provider, has it checked by the plugin that declares it: src/shell/runtime.ts).
    controller.setInput('');
    await controller.submit(':help');
    expect(controller.state.get().input).toBe('+page[https://a.example/] ');
    expect(controller.attached.held()).toBe('["+page[https://a.example/]"]');
    // A link opened in a new tab leaves this page and its markers as they are.
    controller.show([{ kind: 'effect', effect: { type: 'open', url: 'https://b.example/', blank: true } }]);
    expect(controller.attached.held()).toBe('["+page[https://a.example/]"]');
  });
});
