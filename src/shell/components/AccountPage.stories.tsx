import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { AccountPage } from './AccountPage.tsx';

// The Usage and Subscriptions pages share this component; BackView passes the translated title.
const meta = {
  component: AccountPage,
  args: { testid: 'page-usage', title: 'Usage' },
} satisfies Meta<typeof AccountPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const NotLoggedIn: Story = {};

/** Logged in, the page body belongs to the usage/subscription plugins. */
export const LoggedIn: Story = {
  args: { testid: 'page-subscriptions', title: 'Subscriptions' },
  parameters: { shell: { settings: { user: 'ada' } } satisfies ShellParameters },
};
