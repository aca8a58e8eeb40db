import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ShellParameters } from '../../../.storybook/preview.tsx';
import { FrontView } from './FrontView.tsx';

const meta = { component: FrontView } satisfies Meta<typeof FrontView>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Welcome: Story = {
  parameters: { shell: { state: { systemInfo: { welcome_message: 'Welcome to shellchat.' } } } satisfies ShellParameters },
};

/** Everything under an answer at once: output, stats, evaluation and model info. */
export const Answered: Story = {
  parameters: {
    shell: {
      settings: { useStats: true },
      state: {
        placeholder: 'What is a monad?',
        outputs: [{ kind: 'text', text: 'A monad is a monoid in the category of endofunctors.' }],
        stats: { temperature: '0.7', top_p: '1', token_ct: '42' },
        evaluation: { score: 8, reason: 'Accurate, if terse.' },
        modelInfo: { model: 'gpt-4o-mini', raw: 'A monad is...', session: 1 },
      },
    } satisfies ShellParameters,
  },
};
