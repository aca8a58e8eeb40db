import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { App } from './App.tsx';

// App renders its own themed `.shell` (from the theme setting), so it skips the wrapper.
const meta = {
  component: App,
  parameters: { shell: { bare: true } satisfies ShellParameters },
} satisfies Meta<typeof App>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Front: Story = {
  parameters: {
    shell: {
      bare: true,
      state: {
        outputs: [{ kind: 'text', text: 'Hello! Type a question, or :help for commands.' }],
        modelInfo: { model: 'gpt-4o-mini', raw: 'Hello!', session: 1 },
      },
    } satisfies ShellParameters,
  },
};

export const Back: Story = {
  parameters: { shell: { bare: true, state: { view: 'back', page: 'settings' } } satisfies ShellParameters },
};

export const SplitDark: Story = {
  globals: { theme: 'dark' },
  parameters: { shell: { bare: true, settings: { fullscreen: 'split' } } satisfies ShellParameters },
};
