import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import type { UsageRecord } from '../../core/index.ts';
import { UsagePage } from './UsagePage.tsx';

const meta = { component: UsagePage } satisfies Meta<typeof UsagePage>;
export default meta;

type Story = StoryObj<typeof meta>;

const pair = (input: number, output: number) => ({ input, output });
const record = (daily: number, limit: number | null): UsageRecord => ({
  use_count_monthly: { this_month: 42, last_month: 17 },
  model_usage: [
    {
      model: 'gpt-4o-mini',
      token: { this_month: pair(18_204, 9_730), last_month: pair(6_120, 3_004) },
      fee: { this_month: 0.00857, last_month: 0.00272 },
      token_frequencies: { daily: pair(1_200, 640), weekly: pair(9_000, 4_100), monthly: pair(24_324, 12_734) },
    },
  ],
  use_count_frequencies: { daily, weekly: 30, monthly: 59, daily_limit: limit, weekly_limit: null, monthly_limit: limit && limit * 30, exceeded: limit !== null && daily >= limit },
});

export const NotLoggedIn: Story = {};

/** A user under the daily limit, with no weekly limit. */
export const WithinLimits: Story = {
  args: { load: () => Promise.resolve(record(12, 50)) },
  parameters: { shell: { settings: { user: 'ada' } } satisfies ShellParameters },
};

/** The daily limit reached: the spec's message, and a full bar. */
export const LimitReached: Story = {
  args: { load: () => Promise.resolve(record(50, 50)) },
  parameters: { shell: { settings: { user: 'ada' } } satisfies ShellParameters },
};

/** Root (or a super user): the whole service's usage by model as well. */
export const ServicesUsage: Story = {
  args: {
    load: () =>
      Promise.resolve({
        ...record(12, null),
        services_usage: [
          { model: 'gpt-4o-mini', uses: { this_month: 1_204, last_month: 980 }, token: { this_month: pair(2_400_000, 610_000), last_month: pair(1_900_000, 500_000) }, fee: { this_month: 0.726, last_month: 0.585 } },
          { model: 'gpt-image-1', uses: { this_month: 31, last_month: 0 }, token: { this_month: pair(620, 8_432), last_month: pair(0, 0) }, fee: { this_month: 0.34348, last_month: 0 } },
        ],
      }),
  },
  parameters: { shell: { settings: { user: 'root' } } satisfies ShellParameters },
};
