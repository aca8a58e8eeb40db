import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { InputBox } from './InputBox.tsx';

const meta = { component: InputBox } satisfies Meta<typeof InputBox>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const WithText: Story = {
  parameters: { shell: { state: { input: 'Explain the difference between\nTCP and UDP.' } } satisfies ShellParameters },
};

/** While an answer is generating, Send becomes Stop. */
export const Generating: Story = {
  parameters: { shell: { state: { generating: true, placeholder: 'Explain TCP vs UDP' } } satisfies ShellParameters },
};

/** Enter while an answer is generating: nothing is sent, and a line says why. */
export const EnterWhileGenerating: Story = {
  parameters: { shell: { state: { generating: true, busyRefused: true, input: 'And in Rust?' } } satisfies ShellParameters },
};
