// The archive plugin's own variables (issue 39): what an import may cost,
// and how many run at once. The shapes inside an
// archive (depth, string sizes, counts) are fixed in common/limits.ts.
import { definePluginEnv, doc, number } from '../../../src/core/envVars.ts';

export default definePluginEnv(
  {
    IMPORT_MAX_MB: doc(number(512, 1, 16_384, true), '512', 'The largest archive `:session import` takes (POST /api/archive/import), in MB as sent: a ChatGPT or Claude export zip, or a JSON file. It is held in a temporary file (the system temporary folder) while it is imported'),
    IMPORT_INFLATED_MAX_MB: doc(number(2048, 1, 65_536, true), '2048', 'How many MB one import may inflate from a zip, counted as the bytes come out (a zip bomb stops there, refused with a message)'),
    IMPORT_MAX_SECONDS: doc(number(900, 1, 86_400, true), '900', 'How long one import may take, in seconds; the conversations written by then stay, the rest is reported as not read'),
    IMPORT_MAX_RUNNING: doc(number(2, 1, 1000, true), '2', 'How many imports run at once, each holding up to `IMPORT_MAX_MB` of temporary disk and a parser\'s CPU: one more is refused before its upload is read (503, with Retry-After), as is a second one of the same person (429). Counted per instance, as the disk and CPU it spares are: with several instances behind a balancer, each runs up to this many, and one person may run one on each'),
  },
  (e) => ({ maxBytes: e.IMPORT_MAX_MB * 1024 * 1024, maxInflated: e.IMPORT_INFLATED_MAX_MB * 1024 * 1024, seconds: e.IMPORT_MAX_SECONDS, running: e.IMPORT_MAX_RUNNING }),
);
