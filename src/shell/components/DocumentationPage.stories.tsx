import type { Meta, StoryObj } from '@storybook/react-vite';
import { DocumentationPage } from './DocumentationPage.tsx';

// Assembled from the enabled plugins' manifests (app.config.ts), loaded by the real host.
const meta = { component: DocumentationPage } satisfies Meta<typeof DocumentationPage>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Default: Story = {};
