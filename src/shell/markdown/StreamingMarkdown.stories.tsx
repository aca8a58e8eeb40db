import type { Meta, StoryObj } from '@storybook/react-vite';
import { StreamingMarkdown } from './StreamingMarkdown.tsx';

const ANSWER = [
  '## Reading a file line by line',
  '',
  'Use `readline` with a stream, so memory stays flat for **large** files ([docs](https://nodejs.org/api/readline.html)).',
  '',
  '```ts',
  "import { createReadStream } from 'node:fs';",
  "import { createInterface } from 'node:readline';",
  '',
  'for await (const line of createInterface({ input: createReadStream(path) })) {',
  '  count += line.length;',
  '}',
  '```',
  '',
  '| approach | memory | speed |',
  '| --- | --- | ---: |',
  '| `readFile` | O(n) | 1.0x |',
  '| `readline` | O(1) | 0.8x |',
  '',
  'The mean line length is $\\bar{x} = \\frac{1}{n}\\sum_i x_i$, and in display form:',
  '',
  '$$',
  '\\bar{x} = \\frac{1}{n} \\sum_{i=1}^{n} x_i',
  '$$',
  '',
  '> Raw HTML such as <b onclick="x()">this</b> is shown as text.',
  '',
  '- [x] stream the file',
  '- [ ] handle `\\r\\n`',
].join('\n');

const meta = { component: StreamingMarkdown, args: { text: ANSWER, done: true } } satisfies Meta<typeof StreamingMarkdown>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Answer: Story = {};

/** Mid-stream: the open code fence shows as raw text until it closes. */
export const StreamingOpenFence: Story = {
  args: { text: ANSWER.slice(0, ANSWER.indexOf('  count')), done: false },
};

/** Mid-stream: an open `$$` block shows its TeX until it closes. */
export const StreamingOpenMath: Story = {
  args: { text: ANSWER.slice(0, ANSWER.indexOf('\\sum_{i=1}')), done: false },
};
