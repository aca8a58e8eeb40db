import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { ViewToggle } from './ViewToggle.tsx';

const meta = { component: ViewToggle } satisfies Meta<typeof ViewToggle>;
export default meta;

type Story = StoryObj<typeof meta>;

/** The dot, shown on the front view. */
export const Front: Story = {
  parameters: { shell: { state: { view: 'front' } } satisfies ShellParameters },
};

/** The cross, shown on the back view. */
export const Back: Story = {
  parameters: { shell: { state: { view: 'back' } } satisfies ShellParameters },
};
