// Table-driven tests of the command line (spec part 5), through the real host and the
// built-in plugins, asserting the spec's exact English messages.
import { describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { definePlugin, PLUGIN_API, text, type PluginEntry } from './index.ts';

/** A test plugin with quoted, secret and login-only arguments, as later plugins will have. */
const fixture: PluginEntry = {
  manifest: definePlugin({
    api: PLUGIN_API,
    id: 'fixture',
    version: '0.0.0',
    commands: [
      { id: 'role.use', words: ['role', 'use'], group: 'roles', args: [{ name: 'name', quoted: 'roleName' }] },
      { id: 'role.add', words: ['role', 'add'], group: 'roles', needs: ['login'], args: [{ name: 'name', quoted: 'roleName' }, { name: 'prompt', quoted: 'prompt' }] },
      { id: 'store.search', words: ['store', 'search'], group: 'stores', args: [{ name: 'text', quoted: 'searchText' }] },
      { id: 'store.add', words: ['store', 'add'], group: 'stores', args: [{ name: 'engine', quoted: 'name' }, { name: 'name', quoted: 'storeName' }] },
      { id: 'generate', words: ['generate'], group: 'nodes', needs: ['server', 'login'], args: [{ name: 'input', quoted: 'command' }] },
      { id: 'word', words: ['word'], group: 'general', args: [{ name: 'word', quoted: 'word' }] },
      { id: 'user.set', words: ['user', 'set'], group: 'user', args: [{ name: 'key' }, { name: 'value', quoted: 'settingValue' }] },
      { id: 'login', words: ['login'], group: 'user', args: [{ name: 'username' }, { name: 'password', secret: true }] },
    ],
  }),
  load: async () => ({
    activate(ctx) {
      for (const id of ['role.use', 'role.add', 'store.search', 'store.add', 'generate', 'word', 'user.set', 'login']) {
        ctx.handle(id, (c) => text(`${id} ${JSON.stringify(c.args)}`));
      }
    },
  }),
};

const tester = await createShellTester({ plugins: ['general', 'stats', 'speak', 'info', fixture] });

describe('line syntax (spec part 5)', () => {
  it.each([
    ['：help', 'Please use half-width colon (":").'],
    ['！get_time()', 'Please use half-width exclamation mark ("!").'],
    [':', 'Invalid command.'],
    [':   ', 'Invalid command.'],
    [': help', 'Invalid command.'],
    [':"help"', 'Invalid command.'],
    [':nosuchcommand', 'Unknown command.'],
    [':help nosuchcommand', 'Command not found.'],
    ['!get_time', 'Function invalid.'],
    ['!get_time({"timezone":"UTC"})', 'Please login.'],
    ['hello +img[ftp://x/y.png]', 'URL must start with http or https.'],
    ['+file[file.txt]', 'URL must start with http or https.'],
  ])('%s → %s', async (line, message) => {
    expect((await tester.run(line)).errors).toEqual([message]);
  });

  it('ignores empty input', async () => {
    for (const line of ['', '   ', '\n\t']) expect((await tester.run(line)).outputs).toEqual([]);
  });

  it('folds full-width letters and digits to half-width', async () => {
    expect((await tester.run(':ｓｔａｔｓ ｏｎ')).text).toBe('Stats on.');
    expect((await tester.run(':set memLength ３')).text).toBe('memLength: 3');
  });

  it('matches command words case-insensitively', async () => {
    expect((await tester.run(':STATS On')).text).toBe('Stats on.');
  });
});

describe('arguments (spec part 5)', () => {
  it('splits on spaces and commas and keeps quoted strings whole', async () => {
    expect((await tester.run(':role add "Code, reviewer" "Review the code, line by line."')).errors).toEqual(['Please login.']);
    expect((await tester.run(':store add "file","my docs"')).text).toBe('store.add {"engine":"file","name":"my docs"}');
  });

  it.each([
    [':role use coder', 'Role name must be quoted with double quotes.'],
    [':store search text', 'Search text must be quoted with double quotes.'],
    [':store add "file" docs', 'Store name must be quoted with double quotes.'],
    [':store add file "docs"', 'Name must be quoted with double quotes.'],
    [':user set theme dark', 'Setting value must be quoted with double quotes.'],
    [':word hello', 'Word must be quoted with double quotes.'],
    [':voice use Alex', 'Voice name must be quoted with double quotes.'],
    [':role use "unterminated', 'Role name must be quoted with double quotes.'],
  ])('%s → %s', async (line, message) => {
    expect((await tester.run(line)).errors).toEqual([message]);
  });

  it("'Command must be enclosed in double quotes.' for an unquoted generate input", async () => {
    const loggedIn = await createShellTester({ plugins: [fixture], identity: { loggedIn: true, username: 'ada' } });
    expect((await loggedIn.run(':generate hello')).errors).toEqual(['Command must be enclosed in double quotes.']);
    expect((await loggedIn.run(':generate "hello there"')).text).toBe('generate {"input":"hello there"}');
  });

  it('keeps escaped quotes and accepts curly quotes from phone keyboards', async () => {
    expect((await tester.run(':role use "say \\"hi\\""')).text).toBe('role.use {"name":"say \\"hi\\""}');
    expect((await tester.run(':role use “coder”')).text).toBe('role.use {"name":"coder"}');
  });

  it.each([
    [':stats', 'Usage: :stats {on|off}'],
    [':stats maybe', 'Usage: :stats {on|off}'],
    [':eval 1', 'Usage: :eval {on|off}'],
    [':speak yes', 'Usage: :speak {on|off}'],
    [':stream', 'Usage: :stream {on|off}'],
    [':location of', 'Usage: :location {on|off}'],
    [':lang use', 'Usage: :lang use <code>'],
    [':lang use en zh', 'Usage: :lang use <code>'],
    [':role use', 'Usage: :role use "<name>"'],
    [':theme blue', 'Usage: :theme [light|dark|terminal]'],
    [':fullscreen wide', 'Usage: :fullscreen [off|default|split]'],
    [':set', 'Usage: :set <key> <value>...'],
    [':set memLength', 'Usage: :set <key> <value>...'],
  ])('wrong arguments: %s → %s', async (line, message) => {
    expect((await tester.run(line)).errors).toEqual([message]);
  });

  it('shows the whole family when a root gets a word it does not take', async () => {
    const { errors } = await tester.run(':voice bogus');
    expect(errors[0]!.split('\n').map((l) => l.trim())).toEqual([
      'Usage: :voice',
      ':voice ls',
      ':voice use "<name>"',
      ':voice reset',
    ]);
  });
});

describe('gates', () => {
  it("answers 'Please login.' before loading a plugin's code for login-only commands", async () => {
    expect((await tester.run(':role add "a" "b"')).errors).toEqual(['Please login.']);
    expect(tester.host.isActive('fixture')).toBe(true); // activated earlier by role.use, unaffected
  });

  it('refuses server commands offline with the command name', async () => {
    const offline = await createShellTester({ plugins: [fixture], online: false, identity: { loggedIn: true } });
    expect((await offline.run(':generate "x"')).errors).toEqual(['`:generate` command is not available offline.']);
  });
});

describe('history marks', () => {
  it('never remembers lines that carry a password', async () => {
    expect((await tester.run(':login ada secret')).remember).toBe(false);
    expect((await tester.run(':LOGIN ada secret')).remember).toBe(false);
    expect((await tester.run(':stats on')).remember).toBe(true);
    expect((await tester.run('hello there')).remember).toBe(false);
  });

  it('refuses to remember the spec password commands even without their plugin', async () => {
    const bare = await createShellTester({ plugins: ['general'] });
    for (const line of [':login ada pw', ':user add ada a@b.c pw', ':user set pass pw', ':user join grp pw']) {
      const result = await bare.run(line);
      expect(result.errors).toEqual(['Unknown command.']);
      expect(result.remember).toBe(false);
    }
  });
});

describe('attachments', () => {
  it('takes markers out of the text wherever they stand, leaving no double space', async () => {
    const { extractAttachments } = await import('./line.ts');
    expect(extractAttachments('Compare +file[https://a.test/r.pdf] these: +image[https://a.test/c.png]')).toEqual({
      text: 'Compare these:',
      attachments: [
        { kind: 'file', url: 'https://a.test/r.pdf' },
        { kind: 'image', url: 'https://a.test/c.png' },
      ],
    });
    expect(extractAttachments('+img[http://a.test/x.jpg]\nwhat is this?')).toEqual({ text: 'what is this?', attachments: [{ kind: 'image', url: 'http://a.test/x.jpg' }] });
    // A marker still uploading, or flagged, is no URL.
    expect(extractAttachments('look +image[cat.png (uploading...) #k1]')).toEqual({ error: 'urlMustStartWithHttp' });
  });
});
