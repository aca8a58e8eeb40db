import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { App } from './App.tsx';

// App renders its own themed `.shell`, so it skips the wrapper; Storybook merges this `shell`
// parameter into each story's, so `bare` holds for all of them.
const meta = {
  component: App,
  parameters: { shell: { bare: true } satisfies ShellParameters },
} satisfies Meta<typeof App>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Front: Story = {
  parameters: {
    shell: {
      state: {
        outputs: [{ kind: 'text', text: 'Hello! Type a question, or :help for commands.' }],
        modelInfo: { model: 'gpt-4o-mini', raw: 'Hello!', session: 1 },
      },
    } satisfies ShellParameters,
  },
};

export const Back: Story = {
  parameters: { shell: { state: { view: 'back', page: 'settings' } } satisfies ShellParameters },
};

export const SplitDark: Story = {
  globals: { theme: 'dark' },
  parameters: {
    shell: {
      settings: { fullscreen: 'split' },
      state: { input: ':theme dark', outputs: [{ kind: 'text', text: 'Input on the left, answer on the right.' }] },
    } satisfies ShellParameters,
  },
};
