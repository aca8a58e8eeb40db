// Documentation contributions of the stats plugin: the self-evaluation score among the more
// features. Loaded with the Documentation page, not the first paint.
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  features: [{ key: 'docs.feature', order: 101, more: true }],
};

export default docs;
