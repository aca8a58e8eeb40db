// Documentation contributions of the cli plugin: its feature line.
import type { DocsContribution } from '../../src/core/index.ts';

const docs: DocsContribution = {
  features: [{ key: 'docs.feature', order: 107, more: true }],
};

export default docs;
