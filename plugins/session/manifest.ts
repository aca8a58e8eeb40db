// Sessions & Logs (spec parts 2, 3, 4, 5, 6, 7, 8): the current session, the session list,
// attaching and sharing a session, its logs, and the keyboard and swipe navigation between
// logs and sessions (searching logs: plugins/search). Pure data; the handlers live in common/.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'session',
  version: '1.0.0',
  // Listens to the shell's 'navigate' event (arrow keys, h/j/k/l and swipes) from the start.
  activation: 'startup',
  helpGroups: [{ id: 'sessions', order: 20 }],
  commands: [
    { id: 'session', words: ['session'], aliases: [['s']], group: 'sessions', needs: ['server'] },
    { id: 'session.ls', words: ['session', 'ls'], aliases: [['session', 'list'], ['ls']], group: 'sessions', needs: ['server', 'login'] },
    {
      id: 'session.attach',
      words: ['session', 'attach'],
      aliases: [['attach'], ['sa']],
      group: 'sessions',
      needs: ['server'],
      // Optional in the grammar so that a missing id answers 'Session is required.' (spec part 5).
      args: [{ name: 'id', optional: true, display: '<session_id>', complete: 'session' }],
    },
    { id: 'session.share', words: ['session', 'share'], group: 'sessions', needs: ['server'] },
    { id: 'log', words: ['log'], aliases: [['l']], group: 'sessions', needs: ['server'] },
  ],
});
