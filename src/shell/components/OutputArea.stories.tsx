import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { OutputArea } from './OutputArea.tsx';

const meta = { component: OutputArea } satisfies Meta<typeof OutputArea>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const SeveralOutputs: Story = {
  parameters: {
    shell: {
      state: {
        outputs: [
          { kind: 'text', text: 'Theme set to dark.' },
          { kind: 'list', title: 'Sessions', items: [{ text: '1700000000' }, { text: '1700000600', active: true }] },
        ],
      },
    } satisfies ShellParameters,
  },
};

export const WithNotice: Story = {
  parameters: {
    shell: { state: { outputs: [{ kind: 'text', text: 'Some answer.' }], notice: 'Copied.' } } satisfies ShellParameters,
  },
};

export const Working: Story = {
  parameters: {
    shell: { state: { outputs: [{ kind: 'text', text: 'The last result, hidden meanwhile.' }], working: ':hello' } } satisfies ShellParameters,
  },
};
