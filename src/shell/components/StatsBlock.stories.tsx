import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { StatsBlock } from './StatsBlock.tsx';

const stats = {
  temperature: '0.7',
  top_p: '1',
  token_ct: '1234',
  func: 'none',
  mem: 'on',
  role: 'default',
  stores: 'none',
  node: 'none',
  eval: 'on',
};

const meta = { component: StatsBlock } satisfies Meta<typeof StatsBlock>;
export default meta;

type Story = StoryObj<typeof meta>;

/** `:stats on` (the useStats setting) and stats from the last answer. */
export const On: Story = {
  parameters: { shell: { settings: { useStats: true }, state: { stats } } satisfies ShellParameters },
};

/** With useStats off the block is hidden even when stats exist. */
export const Off: Story = {
  parameters: { shell: { settings: { useStats: false }, state: { stats } } satisfies ShellParameters },
};
