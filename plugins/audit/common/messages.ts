// What the audit plugin says, shared by its server and its command (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';
import { AUDIT_FILTERS, AUDIT_PAGE_MAX } from './limits.ts';

export const MESSAGES = defineMessages(
  'audit',
  {
    rootOnly: 'Only root can read the audit trail.',
    badFilter: 'Unknown filter "{{word}}". Filters are: {{filters}} (e.g. user=alice kind=user.role since=7d).',
    badTime: 'Invalid time "{{value}}". Use a date (2026-11-01, 2026-11-01T12:00) or a span back from now (30m, 24h, 7d).',
    badLimit: 'Invalid limit. It is a whole number from 1 to {{pageMax}}.',
    none: 'No audit entries found.',
  },
  { filters: AUDIT_FILTERS.join(', '), pageMax: AUDIT_PAGE_MAX },
);
