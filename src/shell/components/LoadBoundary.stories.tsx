import type { Meta, StoryObj } from '@storybook/react-vite';
import { LoadBoundary, LoadFailed } from './LoadBoundary.tsx';

/** A part whose chunk failed to load, as React.lazy reports it. */
function Unloadable(): never {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/markdown.js');
}

const meta = { component: LoadFailed } satisfies Meta<typeof LoadFailed>;
export default meta;

type Story = StoryObj<typeof meta>;

/** The line a part that could not load shows. */
export const Line: Story = {};

/** An answer whose renderer could not load: shown as plain text, with the line under it. */
export const AnswerAsPlainText: Story = {
  render: () => (
    <LoadBoundary
      fallback={() => (
        <>
          <div className="out-text">The answer, **as written**, since the renderer could not load.</div>
          <LoadFailed />
        </>
      )}
    >
      <Unloadable />
    </LoadBoundary>
  ),
};
