// The shell controller: the front and back views' state and every action a key, a gesture or
// a button can trigger. React components only render this state and call these methods.
import type { Emitter } from 'mitt';
import {
  DEFAULT_PLACEHOLDER,
  USER_INPUT_MAX,
  maskSecrets,
  pushHistory,
  shortenPlaceholder,
  walkHistory,
  type BackPage,
  type Effect,
  type Identity,
  type Output,
  type PluginHost,
  type SettingsStore,
  type ShellEvents,
  type SystemInfo,
  type Translate,
} from '../core/host/index.ts';
import { AttachedMarkers, tabStorage, type TabStorage } from '../core/attached.ts';
import type { TabCompletion } from './completion.ts';
import { ShownOutputs } from './shown.ts';
import { StateStore } from './stateStore.ts';

export interface ModelInfo {
  model: string;
  /** The raw text of the result, copied by a click. */
  raw: string;
  session: number;
}

export interface ShellState {
  view: 'front' | 'back';
  page: BackPage;
  /** What the page puts in view (a view effect's `focus`), until the next change of view. */
  pageFocus?: string;
  input: string;
  /** The result shown in the output area: the last command's outputs, or a log. */
  outputs: Output[];
  generating: boolean;
  /** Enter was pressed while an answer streams: the input says why nothing was sent. */
  busyRefused: boolean;
  placeholder: string;
  previews: string[];
  stats: Record<string, string> | null;
  evaluation: { score: number; reason: string } | null;
  modelInfo: ModelInfo | null;
  notice: string;
  systemInfo: SystemInfo;
  online: boolean;
  /** A command that is taking a while (`:store search`): the output area says it is running (shown.ts). */
  working: string;
  /** Counts finished submissions, so tests and assistive tech can tell a silent command ran. */
  runs: number;
}

export class ShellController {
  readonly state: StateStore<ShellState>;
  private lastInput = '';
  /** What `attach` effects put into the input (a page read for the next question), held in the tab. */
  readonly attached: AttachedMarkers;
  /** Tab's completions and where their cycle is: none until the first Tab, and again once a line is sent. */
  private completion: TabCompletion | undefined;
  private abort: AbortController | undefined;
  private hostPromise: Promise<PluginHost> | undefined;
  private loadedHost: PluginHost | undefined;
  readonly settings: SettingsStore;
  readonly events: Emitter<ShellEvents>;
  private readonly loadHost: () => Promise<PluginHost>;
  private readonly t: Translate;
  /** Attachment markers whose files are still uploading (upload.ts). */
  private readonly uploading = new Set<string>();
  /** Markers of uploads that failed, with the file's name and why (upload.ts). */
  private readonly failedUploads = new Map<string, { name: string; reason: string }>();
  /** Images uploaded into the input, shown among the previews while their marker is there. */
  private readonly uploaded = new Set<string>();
  /**
   * The input shows (or was emptied by walking past) the command history: Up and Down keep
   * walking it, rather than falling into session navigation at its newest end.
   */
  walkingHistory = false;
  /** What the output area shows of each submitted line, and the working line. */
  private readonly shown: ShownOutputs;

  constructor(options: {
    settings: SettingsStore;
    events: Emitter<ShellEvents>;
    loadHost: (controller: ShellController) => Promise<PluginHost>;
    t: Translate;
    systemInfo?: SystemInfo;
    /** The tab's storage (sessionStorage unless given), which keeps attached markers over a navigation. */
    tab?: TabStorage;
  }) {
    const { settings, systemInfo = {} } = options;
    this.attached = new AttachedMarkers('tab' in options ? options.tab : tabStorage());
    this.settings = settings;
    this.events = options.events;
    this.t = options.t;
    this.loadHost = () => options.loadHost(this);
    this.state = new StateStore<ShellState>({
      view: 'front',
      page: 'documentation',
      input: '',
      outputs: [],
      generating: false,
      busyRefused: false,
      placeholder: shortenPlaceholder(systemInfo.init_placeholder || DEFAULT_PLACEHOLDER),
      previews: [],
      stats: null,
      evaluation: null,
      modelInfo: null,
      notice: '',
      systemInfo,
      online: true,
      working: '',
      runs: 0,
    });
    this.shown = new ShownOutputs(this.state);
    this.events.on('output', (outputs) => this.show(outputs));
  }

  /** The plugin host, loaded once on first need (it is not part of the first paint). */
  host(): Promise<PluginHost> {
    this.hostPromise ??= this.loadHost().then((host) => (this.loadedHost = host));
    return this.hostPromise;
  }

  /** The input as shown: secret arguments (passwords) replaced by asterisks when passMask is on. */
  masked(line: string): string {
    if (!this.loadedHost || !line.startsWith(':') || !this.settings.get<boolean>('passMask')) return line;
    return maskSecrets(line, this.loadedHost.registry);
  }

  identity(): Identity {
    const user = this.settings.get<string>('user');
    return user ? { loggedIn: true, username: user } : { loggedIn: false };
  }

  setSystemInfo(systemInfo: SystemInfo): void {
    this.state.set((s) => ({
      systemInfo,
      // The operator's placeholder is shortened by the same rule as the last input (spec part 2).
      placeholder: this.lastInput ? s.placeholder : shortenPlaceholder(systemInfo.init_placeholder || DEFAULT_PLACEHOLDER),
    }));
  }

  setOnline(online: boolean): void {
    this.state.set({ online });
  }

  setInput(input: string): void {
    this.walkingHistory = false;
    // An uploaded image whose marker was deleted leaves the previews with it.
    const gone = [...this.uploaded].filter((url) => !input.includes(url));
    for (const url of gone) this.uploaded.delete(url);
    for (const marker of this.failedUploads.keys()) if (!input.includes(marker)) this.failedUploads.delete(marker);
    this.state.set(gone.length ? (s) => ({ input, previews: s.previews.filter((url) => !gone.includes(url)) }) : { input });
  }

  /** An image uploaded into the input (upload.ts): shown among the previews while its marker is there. */
  previewUpload(url: string): void {
    this.uploaded.add(url);
    this.state.set((s) => ({ previews: s.previews.includes(url) ? s.previews : [...s.previews, url] }));
  }

  /**
   * Shows outputs in place of the last ones. `line` is the number of the submitted line they
   * answer: an answer that arrives after a later line's is shown below it, never in its place
   * (a slow `:voice use` typed before `:theme`).
   */
  show(outputs: Output[], line?: number): void {
    const visible: Output[] = [];
    // A notice that comes with outputs is their line below (the hint under 'Unknown command.').
    let notice = '';
    for (const output of outputs) {
      if (output.kind === 'effect') this.apply(output.effect);
      else visible.push(output);
      if (output.kind === 'effect' && output.effect.type === 'notice') notice = output.effect.text;
    }
    if (visible.length) this.shown.show(visible, notice, line);
  }

  private apply(effect: Effect): void {
    switch (effect.type) {
      case 'clear':
        this.clear();
        break;
      case 'notice':
        this.notice(effect.text);
        break;
      case 'stop':
        this.stop();
        break;
      case 'view':
        this.setView(effect.view, effect.page, effect.focus);
        break;
      case 'open':
        if (effect.blank) globalThis.open?.(effect.url, '_blank', 'noopener,noreferrer');
        else globalThis.location?.assign(effect.url);
        break;
      case 'result':
        this.state.set({ previews: effect.previews, modelInfo: effect.info, stats: effect.stats ?? null, evaluation: effect.evaluation ?? null });
        break;
      case 'attach':
        this.attached.add(effect.marker);
        this.state.set((s) => ({ input: AttachedMarkers.into(s.input, [effect.marker]) }));
        break;
    }
  }

  /**
   * Runs the input. Ignored while generating (spec part 4), except `:stop`: the command made
   * for that moment, which a keyboard user types as readily as Ctrl+C. What is ignored stays in
   * the box, and a line under it says why and how to stop (it was silent).
   */
  async submit(raw = this.state.get().input): Promise<void> {
    if (!raw.trim()) return;
    const stopping = this.state.get().generating;
    if (stopping && !(await this.runtime().then(([host, lines]) => lines.isStop(raw, host.registry)))) {
      if (this.state.get().generating) this.state.set({ busyRefused: true });
      return;
    }
    // Markers still uploading, or that failed: said by upload.ts, loaded once a file was attached.
    if (this.uploading.size || this.failedUploads.size) {
      const refused = (await import('./upload.ts')).markerRefusal(raw, { pending: this.uploading, failures: this.failedUploads }, this.t);
      if (refused) return this.refuse(refused);
    }
    // Too long for a turn (the server would refuse it): said here, and the text stays in the box.
    if (raw.length > USER_INPUT_MAX) {
      const format = (n: number) => n.toLocaleString();
      return this.refuse([{ kind: 'error', text: this.t('msg.inputTooLong', { length: format(raw.length), max: format(USER_INPUT_MAX) }) }]);
    }
    this.completion = undefined;
    // `:stop` runs beside the generation and aborts the generation's controller (its effect).
    if (!stopping || !this.abort) this.abort = new AbortController();
    // What was uploaded into the input goes with it: a question shows it again as its own images.
    const sent = [...this.uploaded];
    this.uploaded.clear();
    this.walkingHistory = false;
    this.state.set((s) => ({ input: '', notice: '', busyRefused: false, previews: s.previews.filter((url) => !sent.includes(url)) }));
    const line = this.shown.next();
    const [host, { lineCommand }] = await this.runtime();
    const command = lineCommand(raw, host.registry);
    if (command) this.shown.running(line, command.name);
    const result = await host.run(raw, this.abort.signal).finally(() => this.shown.finished(line));
    if (result.parsed.kind === 'empty') return;
    // A line that could not run at all (a failed upload marker, a full-width colon) comes back
    // into the box with the reason, so the person mends it rather than typing it again.
    // So does a question that got no answer at all, only an error (a provider down, offline, a
    // usage limit): a question is not in the command history, and would be lost.
    const unanswered = result.parsed.kind === 'chat' && result.outputs.length > 0 && result.outputs.every((o) => o.kind === 'error');
    if ((result.parsed.kind === 'error' || unanswered) && !this.state.get().input) {
      for (const url of sent) this.uploaded.add(url);
      this.state.set((s) => ({ input: raw, previews: [...s.previews, ...sent.filter((url) => !s.previews.includes(url))] }));
    }
    // Markers deleted to type a command come back after it; a question took or dropped them.
    const back = this.attached.after(raw, result.parsed.kind === 'chat');
    if (back.length) this.state.set((s) => ({ input: AttachedMarkers.into(s.input, back) }));
    if (result.remember) {
      this.settings.set('history', pushHistory(this.settings.get<string[]>('history'), result.parsed.kind === 'command' ? result.parsed.line : raw));
    }
    this.settings.set('historyIndex', -1);
    const secret = result.parsed.kind === 'command' && !result.remember;
    if (!secret) {
      this.lastInput = raw.trim();
      this.state.set({ placeholder: shortenPlaceholder(this.lastInput) });
    }
    this.show(result.outputs, line);
    this.state.set((s) => ({ runs: s.runs + 1 }));
  }

  /** A line that is not sent, and why: it stays in the box. */
  private refuse(outputs: Output[]): void {
    this.show(outputs);
    this.state.set((s) => ({ runs: s.runs + 1 }));
  }

  /**
   * Runs a command for a shortcut (Ctrl+Shift+R is `:reset`), as if typed, leaving the input
   * and the history alone; `otherwise` runs when no installed plugin has the command.
   */
  async shortcut(line: string, otherwise: () => void): Promise<void> {
    const number = this.shown.next();
    const result = await (await this.host()).run(line);
    if (!result.command) return otherwise();
    this.show(result.outputs, number);
    this.state.set((s) => ({ runs: s.runs + 1 }));
  }

  /** The plugin host, and the rest of the command runtime (runtime.ts): loaded after the first paint (B4). */
  private runtime() {
    return Promise.all([this.host(), import('./runtime.ts')]);
  }

  clear(): void {
    this.state.set({ input: '', outputs: [], previews: [], stats: null, evaluation: null, modelInfo: null, notice: '' });
  }

  stop(): void {
    this.abort?.abort();
    this.events.emit('generation:stop', undefined);
    this.state.set({ generating: false });
  }

  /** Ctrl+C: stops generating; otherwise cancels speech. */
  interrupt(): void {
    if (this.state.get().generating) this.stop();
    else this.events.emit('speak:cancel', undefined);
  }

  setView(view: 'front' | 'back', page?: BackPage, focus?: string): void {
    this.state.set((s) => ({ view, page: page ?? s.page, pageFocus: focus }));
  }

  toggleView(): void {
    this.setView(this.state.get().view === 'front' ? 'back' : 'front');
  }

  toggleFullscreen(mode: 'default' | 'split'): void {
    const current = this.settings.get<string>('fullscreen');
    this.settings.set('fullscreen', current === mode ? 'off' : mode);
  }

  notice(text: string): void {
    this.state.set({ notice: text });
  }

  /**
   * Files pasted, dropped or picked: each gets a marker in the input (at the caret `at`, or at
   * the end) that says it is uploading, then holds its object URL, or a failure note.
   */
  async attach(files: readonly File[], at?: number): Promise<void> {
    if (!files.length) return;
    const [{ attachToShell }, host] = await Promise.all([import('./upload.ts'), this.host()]);
    await attachToShell(this, host, this.t, { pending: this.uploading, failures: this.failedUploads }, files, at);
  }

  /** Tab in an empty input repeats the last input. */
  repeatLast(): boolean {
    if (!this.lastInput) return false;
    this.state.set({ input: this.lastInput });
    return true;
  }

  /** Tab after a command: completes, and cycles through candidates on repeated presses (completion.ts). */
  async complete(): Promise<boolean> {
    const line = this.state.get().input;
    const [host, runtime] = await this.runtime();
    this.completion ??= new runtime.TabCompletion();
    const next = await this.completion.next(line, host, this.settings);
    if (next === undefined || this.state.get().input !== line) return false;
    this.state.set({ input: next });
    return true;
  }

  /** Up/Down in a colon-command input walk the history (newest first). */
  walkHistory(direction: 'up' | 'down'): void {
    this.walkingHistory = true;
    const history = this.settings.get<string[]>('history');
    const index = walkHistory(history, this.settings.get<number>('historyIndex'), direction);
    this.settings.set('historyIndex', index);
    this.state.set({ input: index < 0 ? '' : (history[index] ?? '') });
  }

  /**
   * Session and log navigation (keys and swipes), answered by the session plugin. Moving
   * between sessions needs a login (spec part 2); moving between the logs of the attached
   * session does not, since an anonymous visitor owns its sessions through the device cookie.
   */
  navigate(target: 'session' | 'log', direction: 'previous' | 'next'): void {
    if (target === 'session' && !this.identity().loggedIn) {
      this.show([{ kind: 'error', text: this.t('msg.sessionHistoryLogin') }]);
      return;
    }
    this.events.emit('navigate', { target, direction });
  }
}
