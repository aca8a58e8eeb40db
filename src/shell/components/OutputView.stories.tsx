import type { Meta, StoryObj } from '@storybook/react-vite';
import { OutputView } from './OutputView.tsx';

// One story per visible Output kind ('effect' renders nothing).
const meta = { component: OutputView } satisfies Meta<typeof OutputView>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Text: Story = {
  args: { output: { kind: 'text', text: 'Plain text, <b>never</b> rendered as HTML.' } },
};

// Not named `Error`, which would shadow the global constructor in this module.
export const ErrorOutput: Story = {
  name: 'Error',
  args: { output: { kind: 'error', text: 'Unknown command.' } },
};

export const List: Story = {
  args: {
    output: {
      kind: 'list',
      title: 'Roles',
      items: [{ text: 'default', active: true }, { text: 'translator' }, { text: 'coder' }],
    },
  },
};

export const Table: Story = {
  args: {
    output: {
      kind: 'table',
      title: 'Settings',
      columns: ['key', 'value'],
      rows: [
        ['theme', 'light'],
        ['fullscreen', 'off'],
        ['useStats', 'false'],
      ],
    },
  },
};

export const Json: Story = {
  args: { output: { kind: 'json', value: { model: 'gpt-4o-mini', temperature: 0.7, stores: ['docs'] } } },
};
