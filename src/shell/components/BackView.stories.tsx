import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { BackView } from './BackView.tsx';

const meta = { component: BackView } satisfies Meta<typeof BackView>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Documentation: Story = {
  parameters: { shell: { state: { view: 'back', page: 'documentation' } } satisfies ShellParameters },
};

/** Usage and Subscriptions appear only when system info enables payment and subscriptions. */
export const WithAccountPages: Story = {
  parameters: {
    shell: {
      state: { view: 'back', page: 'usage', systemInfo: { use_payment: true, use_subscriptions: true } },
    } satisfies ShellParameters,
  },
};
