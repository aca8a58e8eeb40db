import type { Meta, StoryObj } from '@storybook/react-vite';
import { PluginPage } from './PluginPage.tsx';

// A page a plugin renders with plain DOM: the subscription plugin's. Storybook has no server, so
// the page shows its title and the reason its plans could not be read.
const meta = { component: PluginPage, args: { page: 'subscriptions', testid: 'page-subscriptions' } } satisfies Meta<typeof PluginPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Subscriptions: Story = {};
