import type { Meta, StoryObj } from '@storybook/react-vite';
import { WindowedTable } from './WindowedTable.tsx';

const meta = { component: WindowedTable } satisfies Meta<typeof WindowedTable>;
export default meta;

type Story = StoryObj<typeof meta>;

/** A session of 1,000 logs: only the rows in view are in the DOM. */
export const ThousandLogs: Story = {
  args: {
    columns: ['Time', 'Input', 'Output'],
    rows: Array.from({ length: 1000 }, (_, i) => [`12:${String(i % 60).padStart(2, '0')}`, `Question ${i}`, `Answer ${i}: ${'lorem ipsum '.repeat(12)}`]),
  },
};
