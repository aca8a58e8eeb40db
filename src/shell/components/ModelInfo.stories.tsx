import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { ModelInfo } from './ModelInfo.tsx';

const meta = { component: ModelInfo } satisfies Meta<typeof ModelInfo>;
export default meta;

type Story = StoryObj<typeof meta>;

/** Click copies the raw answer; Ctrl/Cmd+click copies a `:session attach` command. */
export const Default: Story = {
  parameters: {
    shell: { state: { modelInfo: { model: 'gpt-4o-mini', raw: 'The answer.', session: 1700000000 } } } satisfies ShellParameters,
  },
};
