import type { Meta, StoryObj } from '@storybook/react-vite';
import { HeldImage } from './HeldImage.tsx';

// An inline SVG as a blob URL loads at once (no network, no tracking); another host's image
// waits behind a button that names the host.
const swatch = URL.createObjectURL(
  new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#2156d1"/></svg>'], {
    type: 'image/svg+xml',
  }),
);

const meta = { component: HeldImage } satisfies Meta<typeof HeldImage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const OwnImage: Story = { args: { src: swatch, alt: 'A blue swatch' } };

/** Another origin's image: a button until it is clicked (the story never loads it). */
export const OtherHost: Story = { args: { src: 'https://tracker.example/pixel.png', alt: 'A pixel' } };
