import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { PrivacyPage } from './PrivacyPage.tsx';

const meta = { component: PrivacyPage } satisfies Meta<typeof PrivacyPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** The operator's contact address from system info. */
export const OperatorContact: Story = {
  parameters: { shell: { state: { systemInfo: { contact_email: 'privacy@example.org' } } } satisfies ShellParameters },
};
