import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { Previews } from './Previews.tsx';

// Blob URLs of inline SVGs: Previews accepts them, and they need no network.
const swatch = (colour: string) =>
  URL.createObjectURL(
    new Blob([`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="${colour}"/></svg>`], {
      type: 'image/svg+xml',
    }),
  );

const meta = { component: Previews } satisfies Meta<typeof Previews>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Images: Story = {
  parameters: { shell: { state: { previews: [swatch('#2156d1'), swatch('#1e7b34')] } } satisfies ShellParameters },
};

/** Only http(s) and blob URLs are shown, so this block stays hidden. */
export const UnsafeUrlsHidden: Story = {
  parameters: { shell: { state: { previews: ['javascript:alert(1)', 'data:image/png;base64,AAAA'] } } satisfies ShellParameters },
};
