// Tab after a command in the input: the line completed from the manifests (the registry's
// completeLine, with the plugins' providers and the settable keys), and repeated presses cycling
// through the candidates. Part of the command runtime (runtime.ts), after the first paint (B4).
import type { PluginHost, SettingsStore } from '../core/host/index.ts';
import { completeLine } from '../core/host/tabCompletion.ts';

interface CompletionCycle {
  line: string;
  base: string;
  candidates: string[];
  index: number;
}

export class TabCompletion {
  private cycle: CompletionCycle | undefined;

  /** The input that Tab makes of `line`: the next candidate while cycling, else the first; undefined when none fits. */
  async next(line: string, host: PluginHost, settings: SettingsStore): Promise<string | undefined> {
    if (this.cycle && this.cycle.line === line && this.cycle.candidates.length > 1) {
      const index = (this.cycle.index + 1) % this.cycle.candidates.length;
      const next = this.cycle.base + this.cycle.candidates[index]!;
      this.cycle = { ...this.cycle, index, line: next };
      return next;
    }
    const { base, candidates } = await completeLine(line, host.registry, {
      settingKeys: () => settings.specs().filter((s) => s.settable !== false).map((s) => s.key),
      provider: (source, pluginId) => host.completionProvider(source, pluginId),
    });
    if (!candidates.length) return undefined;
    const next = base + candidates[0]! + (candidates.length === 1 ? ' ' : '');
    this.cycle = { line: next, base, candidates, index: 0 };
    return next;
  }
}
