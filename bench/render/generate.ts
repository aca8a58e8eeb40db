// Deterministic chat-answer markdown for the render benchmark and the renderer tests
// (performance.md, appendix): a seeded LCG, sections cycling through heading + 2 sentences,
// a 5-item list, a 20-line TypeScript fence, a 6-row GFM table, a sentence + display math,
// and a blockquote + 3-item ordered list. Words come from a 40-word chat-domain list; per
// word: 4 % bold, 3 % inline code, 1 % link, 1 % inline math.

const WORDS = [
  'model', 'token', 'stream', 'answer', 'prompt', 'context', 'session', 'render', 'server', 'client',
  'cache', 'buffer', 'vector', 'matrix', 'function', 'request', 'response', 'latency', 'memory', 'thread',
  'network', 'channel', 'message', 'payload', 'schema', 'index', 'query', 'result', 'value', 'object',
  'string', 'number', 'parser', 'lexer', 'output', 'input', 'engine', 'kernel', 'layer', 'block',
];

/** A small LCG (Numerical Recipes constants), uniform in [0, 1). */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function generateMarkdown(targetBytes: number, seed = 7): string {
  const rand = lcg(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const word = (): string => {
    const w = pick(WORDS);
    const r = rand();
    if (r < 0.04) return `**${w}**`;
    if (r < 0.07) return `\`${w}()\``;
    if (r < 0.08) return `[${w}](https://example.com/${w})`;
    if (r < 0.09) return `$x_${Math.floor(rand() * 9)}^2$`;
    return w;
  };
  const sentence = (min = 8, max = 18): string => {
    const n = min + Math.floor(rand() * (max - min));
    const words = Array.from({ length: n }, word);
    const first = words[0]!;
    words[0] = first[0]!.toUpperCase() + first.slice(1);
    return `${words.join(' ')}.`;
  };
  const code = (): string => {
    const name = pick(WORDS);
    const lines = [
      `export async function ${name}Handler(input: string, limit = ${Math.floor(rand() * 100)}): Promise<string[]> {`,
      `  // ${sentence(4, 8)}`,
      `  const parts: string[] = [];`,
      `  for (let i = 0; i < limit; i++) {`,
      `    const ${pick(WORDS)} = input.slice(i, i + ${1 + Math.floor(rand() * 9)});`,
      `    if (!${pick(WORDS)}Cache.has(i)) continue;`,
      `    parts.push(\`\${i}: ${pick(WORDS)}\`);`,
      `  }`,
      `  const ${pick(WORDS)}Map = new Map<string, number>();`,
      `  for (const part of parts) {`,
      `    ${pick(WORDS)}Map.set(part, (${pick(WORDS)}Map.get(part) ?? 0) + 1);`,
      `  }`,
      `  if (parts.length > ${Math.floor(rand() * 50)}) {`,
      `    throw new Error('too many ${pick(WORDS)}s');`,
      `  }`,
      `  const sorted = [...parts].sort((a, b) => a.localeCompare(b));`,
      `  await new Promise((resolve) => setTimeout(resolve, ${Math.floor(rand() * 10)}));`,
      `  return sorted.filter((p) => p.includes('${pick(WORDS)}'));`,
      `}`,
      `export const ${name}Default = ${Math.floor(rand() * 1000)};`,
    ];
    return ['```ts', ...lines, '```'].join('\n');
  };
  const table = (): string => {
    const head = `| ${pick(WORDS)} | ${pick(WORDS)} | ${pick(WORDS)} | ${pick(WORDS)} |`;
    const rows = Array.from({ length: 6 }, () => `| ${word()} | ${Math.floor(rand() * 1000)} | ${word()} ${word()} | ${(rand() * 10).toFixed(2)} |`);
    return [head, '| --- | ---: | --- | ---: |', ...rows].join('\n');
  };
  const math = (): string => {
    const k = 1 + Math.floor(rand() * 9);
    return rand() < 0.5
      ? `$$\n\\int_0^{${k}} e^{-x^2} \\, dx = \\sum_{n=0}^{\\infty} \\frac{(-1)^n ${k}^{2n+1}}{n! (2n+1)}\n$$`
      : `$$\n\\sum_{i=1}^{n} x_i^${k} \\leq \\left( \\sum_{i=1}^{n} x_i \\right)^{${k}}\n$$`;
  };
  const sections = [
    () => `## ${sentence(2, 5).slice(0, -1)}\n\n${sentence()} ${sentence()}`,
    () => Array.from({ length: 5 }, () => `- ${sentence(4, 10)}`).join('\n'),
    code,
    table,
    () => `${sentence()}\n\n${math()}`,
    () => `> ${sentence()}\n\n${Array.from({ length: 3 }, (_, i) => `${i + 1}. ${sentence(4, 10)}`).join('\n')}`,
  ];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const part = sections[i % sections.length]!();
    parts.push(part);
    size += part.length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}
