import type { Meta, StoryObj } from '@storybook/react-vite';
import { SettingsPage } from './SettingsPage.tsx';

// The buttons change the story's in-memory settings, so clicking a theme restyles the story.
const meta = { component: SettingsPage } satisfies Meta<typeof SettingsPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const Terminal: Story = { globals: { theme: 'terminal' } };
