// The role plugin's own variable (issue 35: a plugin declares its own; the server merges it
// into its schema and docs/configuration.md): the operator's system roles file, read and
// checked at start.
import { z } from 'zod';
import { definePluginEnv, doc, text, type OperatorFiles } from '../../../src/core/envVars.ts';

/** A system role the operator adds (plugins/role ships the others in the same shape). */
export interface OperatorRole {
  name: string;
  prompt: string;
}

export default definePluginEnv(
  {
    ROLES_FILE: doc(text(), '`DATA_DIR/roles.json`', 'The operator\'s system roles, added to the shipped ones (`plugins/role/data/system-roles.json`) in the same JSON: `[{"name":"reviewer","prompt":"..."}]` (names up to 64 characters, prompts up to 8,000); a role of the same name replaces the shipped one. Read on start; set, it must exist (the default one may be absent)'),
  },
  (e, files) => {
    const rolesFile = e.ROLES_FILE ? files.named('ROLES_FILE', e.ROLES_FILE) : files.inDataDir('roles.json');
    return { rolesFile, operatorRoles: operatorRoles(rolesFile, files) };
  },
);

/**
 * The operator's roles file: a JSON array of {name, prompt}; names up to 64 characters, prompts
 * up to 8,000. Absent (the default one may be; a named one was checked), there are none.
 */
function operatorRoles(file: string, files: OperatorFiles): OperatorRole[] {
  const source = files.read('ROLES_FILE', file);
  if (source === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (err) {
    throw new Error(`ROLES_FILE ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const chars = (s: string) => [...s].length;
  const entry = z.object({
    name: z.string().refine((n) => n.trim() === n && chars(n) >= 1 && chars(n) <= 64 && !/[\u0000-\u001f\u007f]/.test(n), 'names are 1 to 64 characters, without surrounding spaces'),
    prompt: z.string().refine((p) => p.trim() !== '' && chars(p) <= 8000, 'prompts are 1 to 8,000 characters'),
  });
  const checked = z.array(entry).safeParse(parsed);
  if (!checked.success) {
    throw new Error(`ROLES_FILE ${file} must be a JSON array of {"name", "prompt"}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return checked.data.map((r) => ({ name: r.name, prompt: r.prompt }));
}
