// What the output area shows, and when. Each submitted line's answer takes the last one's place,
// except one that comes after a later line's: it goes below it (a slow `:voice use` typed before
// `:theme`). A command that has not answered after WORKING_DELAY_MS shows a working line naming
// it meanwhile, unless it shows its own progress first (`:web`'s "Searching the web...").
import { WORKING_DELAY_MS, type Output } from '../core/host/index.ts';
import type { ShellState } from './controller.ts';
import type { StateStore } from './stateStore.ts';

export class ShownOutputs {
  /** Lines submitted so far, and the latest of them whose answer is on screen. */
  private submitted = 0;
  private shown = 0;
  /** The command whose working line is due (or showing), by its line's number. */
  private waiting: { line: number; timer: ReturnType<typeof setTimeout> } | undefined;

  private readonly state: StateStore<ShellState>;

  constructor(state: StateStore<ShellState>) {
    this.state = state;
  }

  /** The number of a line being submitted. */
  next(): number {
    return ++this.submitted;
  }

  /**
   * Outputs in place of the last ones, with `notice` as their line below. `line`: the submitted
   * line they answer; without one, the latest (a command's own progress, which ends its working line).
   */
  show(visible: Output[], notice: string, line = this.submitted): void {
    if (line >= (this.waiting?.line ?? 0)) this.settle();
    if (line < this.shown) return this.state.set((s) => ({ outputs: [...s.outputs, ...visible] }));
    this.shown = line;
    this.state.set({ outputs: visible, notice });
  }

  /** Line `line` runs `command`: it is said to be running after the delay, unless something shows first. */
  running(line: number, command: string): void {
    this.settle();
    this.waiting = { line, timer: setTimeout(() => this.state.set({ working: command }), WORKING_DELAY_MS) };
  }

  /** Line `line` has finished, whether it showed anything or not: its working line goes. */
  finished(line: number): void {
    if (this.waiting?.line === line) this.settle();
  }

  private settle(): void {
    if (!this.waiting) return;
    clearTimeout(this.waiting.timer);
    this.waiting = undefined;
    this.state.set({ working: '' });
  }
}
