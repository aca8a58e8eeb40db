import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { EvalBlock } from './EvalBlock.tsx';

const meta = { component: EvalBlock } satisfies Meta<typeof EvalBlock>;
export default meta;

type Story = StoryObj<typeof meta>;

const scored = (score: number, reason: string): Story => ({
  parameters: { shell: { state: { evaluation: { score, reason } } } satisfies ShellParameters },
});

export const Green: Story = scored(8, 'Complete and accurate.');
export const Orange: Story = scored(5, 'Partly answers the question.');
export const Red: Story = scored(2, 'Mostly wrong.');
/** Scores outside 0–10 are shown grey. */
export const Grey: Story = scored(-1, 'The evaluation could not be parsed.');
/** An evaluator reply without a score: '?', grey, and the reply cut like a preview. */
export const NoScore: Story = scored(Number.NaN, 'I would rather not score this answer, since the question asks for an opinion...');
