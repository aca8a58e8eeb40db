import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../../tests/harness/shellTester.ts';
import { editDistance } from './suggest.ts';

const tester = await createShellTester();
/** What a line answers: its errors, and the notice under them. */
async function said(line: string, t = tester) {
  const { outputs, errors } = await t.run(line);
  const notices = outputs.flatMap((o) => (o.kind === 'effect' && o.effect.type === 'notice' ? [o.effect.text] : []));
  return { errors, notices };
}

describe('the line under Unknown command. and Invalid command.', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('logn', 'login')).toBe(1);
    expect(editDistance('lgoin', 'login')).toBe(1);
    expect(editDistance('', 'help')).toBe(4);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('keeps the spec message exact on its own line, and names the closest command below it', async () => {
    expect(await said(':logn bob secret')).toEqual({ errors: ['Unknown command.'], notices: ['Did you mean :login?'] });
    expect(await said(':hepl')).toEqual({ errors: ['Unknown command.'], notices: ['Did you mean :help?'] });
    expect(await said(':sesion ls')).toEqual({ errors: ['Unknown command.'], notices: ['Did you mean :session ls?'] });
    // The arguments typed (a password here) are never repeated.
    expect((await said(':logn bob secret')).notices.join()).not.toContain('secret');
  });

  it('points to :help when nothing is close enough', async () => {
    expect(await said(':frobnicate')).toEqual({ errors: ['Unknown command.'], notices: ['Type :help to list the commands.'] });
    expect(await said(':zz')).toEqual({ errors: ['Unknown command.'], notices: ['Type :help to list the commands.'] });
  });

  it("says what was meant under 'Invalid command.'", async () => {
    expect(await said(': help')).toEqual({ errors: ['Invalid command.'], notices: ['Did you mean :help?'] });
    expect(await said(':"lang"')).toEqual({ errors: ['Invalid command.'], notices: ['Did you mean :lang?'] });
    expect(await said(':')).toEqual({ errors: ['Invalid command.'], notices: ['Type :help to list the commands.'] });
  });

  it('suggests only commands that run here, and none under a command of the other client', async () => {
    const terminal = await createShellTester({ env: 'cli' });
    expect(await said(':theme dark', terminal)).toEqual({ errors: [':theme works in the browser only.'], notices: [] });
    expect(await said(':thme dark', terminal)).toEqual({ errors: ['Unknown command.'], notices: ['Type :help to list the commands.'] });
    expect(await said(':thme dark')).toEqual({ errors: ['Unknown command.'], notices: ['Did you mean :theme?'] });
  });

  it('speaks the interface language', async () => {
    const german = await createShellTester({ lang: 'de-DE' });
    expect(await said(':logn', german)).toEqual({ errors: ['Unbekannter Befehl.'], notices: ['Meintest du :login?'] });
  });
});
