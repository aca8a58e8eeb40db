import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { AccountPage } from './AccountPage.tsx';

// The Subscriptions page; BackView passes the translated title.
const meta = {
  component: AccountPage,
  args: { testid: 'page-subscriptions', title: 'Subscriptions' },
} satisfies Meta<typeof AccountPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const NotLoggedIn: Story = {};

/** Logged in: plans need a payment provider, which shellchat does not have yet. */
export const LoggedIn: Story = {
  parameters: { shell: { settings: { user: 'ada' } } satisfies ShellParameters },
};
