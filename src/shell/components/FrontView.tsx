import { EvalBlock } from './EvalBlock.tsx';
import { InputBox } from './InputBox.tsx';
import { ModelInfo } from './ModelInfo.tsx';
import { OutputArea } from './OutputArea.tsx';
import { Previews } from './Previews.tsx';
import { StatsBlock } from './StatsBlock.tsx';
import { Welcome } from './Welcome.tsx';

/** The front view. In split layout the CSS puts the input left and the output right. */
export function FrontView() {
  return (
    <main className="front">
      <section className="front-input">
        <InputBox />
      </section>
      <section className="front-output">
        <Welcome />
        <OutputArea />
        <Previews />
        <StatsBlock />
        <EvalBlock />
        <ModelInfo />
      </section>
    </main>
  );
}
