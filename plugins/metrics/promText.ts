// A strict reader of Prometheus' text exposition format (0.0.4), for the tests (prom-client
// writes it but has no reader): every sample belongs to a family declared by # TYPE before it,
// names and labels follow the format's grammar, label values unescape, a series appears once,
// and a histogram's buckets are cumulative and end with +Inf equal to its _count.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads values with Go's ParseFloat, which takes NaN in any case (prom-client writes 'Nan').
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`);
  return Number(text);
}

/** The labels of `{a="x",b="y"}` from index `at` (just after `{`); returns them and the index after `}`. */
function parseLabels(line: string, at: number, n: number): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at;
  while (line[i] !== '}') {
    const eq = line.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${n}: label without =`);
    const key = line.slice(i, eq);
    if (!LABEL.test(key) || key in labels) throw new Error(`line ${n}: bad or repeated label name ${key}`);
    if (line[eq + 1] !== '"') throw new Error(`line ${n}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] === '\\') {
        const next = line[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`line ${n}: bad escape \\${next}`);
      } else value += line[j];
    }
    if (line[j] !== '"') throw new Error(`line ${n}: unterminated label value`);
    labels[key] = value;
    i = j + 1;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new Error(`line ${n}: expected , or } after a label`);
  }
  return [labels, i + 1];
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, index) => {
    const n = index + 1;
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // a plain comment
      const [, what, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`line ${n}: bad metric name ${name}`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (what === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${n}: bad type ${rest}`);
        if (family.samples.length) throw new Error(`line ${n}: TYPE after samples of ${name}`);
        family.type = rest as Family['type'];
      } else family.help = rest;
      families.set(name, family);
      return;
    }
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    const nameEnd = brace >= 0 && brace < space ? brace : space;
    if (nameEnd <= 0) throw new Error(`line ${n}: no value`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`line ${n}: bad metric name ${name}`);
    let labels: Record<string, string> = {};
    let i = nameEnd;
    if (line[i] === '{') [labels, i] = parseLabels(line, i + 1, n);
    if (line[i] !== ' ') throw new Error(`line ${n}: expected a space before the value`);
    const parts = line.slice(i + 1).split(' ');
    if (parts.length > 2 || (parts.length === 2 && !/^-?\d+$/.test(parts[1]!))) throw new Error(`line ${n}: bad value or timestamp`);
    const value = parseValue(parts[0]!, n);
    const family = [...families.values()].find((f) => f.name === name || (SUFFIXES[f.type] ?? []).some((s) => f.name + s === name));
    if (!family || family.type === 'untyped') throw new Error(`line ${n}: sample ${name} has no # TYPE before it`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`line ${n}: series ${key} repeated`);
    seen.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  const without = (labels: Record<string, string>, key: string) => JSON.stringify(Object.entries(labels).filter(([k]) => k !== key).sort());
  for (const s of family.samples.filter((s) => s.name === `${family.name}_bucket`)) {
    if (s.labels.le === undefined) throw new Error(`${family.name}: a bucket without le`);
    const key = without(s.labels, 'le');
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const [key, buckets] of series) {
    const bounds = buckets.map((b) => parseValue(b.labels.le!, 0));
    if (bounds.at(-1) !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < buckets.length; i++) {
      if (!(bounds[i]! > bounds[i - 1]!) || buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family.name}${key}: buckets not cumulative`);
    }
    const count = family.samples.find((s) => s.name === `${family.name}_count` && without(s.labels, '') === key);
    if (!count || count.value !== buckets.at(-1)!.value) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket`);
  }
}

/** The value of one series (labels matched exactly, `le` included for buckets); 0 when absent. */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = [...families.values()].find((f) => f.name === name || (SUFFIXES[f.type] ?? []).some((s) => f.name + s === name));
  const want = JSON.stringify(Object.entries(labels).sort());
  return family?.samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value ?? 0;
}
