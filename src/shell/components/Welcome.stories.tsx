import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { Welcome } from './Welcome.tsx';

const meta = { component: Welcome } satisfies Meta<typeof Welcome>;
export default meta;

type Story = StoryObj<typeof meta>;

/** Shown to anonymous visitors until the first output. */
export const WelcomeMessage: Story = {
  parameters: {
    shell: { state: { systemInfo: { welcome_message: 'Welcome! Ask anything, or type :help.' } } } satisfies ShellParameters,
  },
};

export const DemoBanner: Story = {
  parameters: { shell: { state: { systemInfo: { demo: true } } } satisfies ShellParameters },
};
