// Functions (spec parts 3, 5, 7, 9): the callables (time, weather, Wolfram|Alpha, redirect) and
// the local MCP helper's tools; which of them the model may call (`functions`), and direct
// calls typed as `!name({...})`, which the runtime hands to this plugin (FunctionRunnerRef).
import { definePlugin, FunctionRunnerRef, McpRef, PLUGIN_API, ToolboxRef } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'function',
  version: '1.0.0',
  commands: [
    { id: 'function', words: ['function'], aliases: [['f'], ['func']], group: 'general', args: [{ name: 'name', optional: true, complete: 'function' }] },
    // `:f` and `:func` are short for `:function`, with its subcommands too.
    { id: 'function.ls', words: ['function', 'ls'], aliases: [['function', 'list'], ['f', 'ls'], ['func', 'ls']], group: 'general' },
    { id: 'function.use', words: ['function', 'use'], aliases: [['f', 'use'], ['func', 'use']], group: 'general', args: [{ name: 'name', complete: 'function' }] },
    { id: 'function.unuse', words: ['function', 'unuse'], aliases: [['f', 'unuse'], ['func', 'unuse']], group: 'general', args: [{ name: 'name', complete: 'function' }] },
  ],
  settings: [
    // The names the model may call, as a comma list (spec part 3); synced for logged-in users.
    { key: 'functions', type: 'string', default: '', scope: 'device', sync: true, turn: true, info: true, page: { order: 40, multiple: 0 } },
  ],
  // The browser entry provides the MCP helper client; the chat uses it for MCP tool calls, and
  // the toolbox for the tool calls of a local model.
  provides: [FunctionRunnerRef, McpRef, ToolboxRef],
});
