// Documentation contributions of the speak plugin: its feature line, which goes when an
// operator leaves the plugin out. Loaded with the Documentation page, not the first paint.
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  features: [{ key: 'docs.feature', order: 9 }],
};

export default docs;
