// Handlers of the node commands, on top of the API client, one module per command in commands/.
// The server decides who may see or change a node and never sends a key unmasked (see
// ../server/index.ts).
import type { PluginContext } from '../../../src/core/index.ts';
import { resetNode, setNode, unuseNode, useNode } from './commands/active.ts';
import { generateWithNode } from './commands/generate.ts';
import { addNode, deleteNode, setNodeKey, setNodeOwner } from './commands/own.ts';
import { nodeAccess } from './commands/shared.ts';
import { listNodes, showNode } from './commands/show.ts';
import { NODE_SETTING_KEYS } from './limits.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

export function activateNode(ctx: PluginContext): void {
  const nodes = nodeAccess(ctx);

  ctx.completion('node', async () => {
    const all = await nodes.lists();
    return [...new Set([...all.user_nodes, ...all.group_nodes, ...all.system_nodes].map((n) => n.name))];
  });
  ctx.completion('nodeSettingKey', () => [...NODE_SETTING_KEYS]);

  ctx.handle('node', showNode(nodes));
  ctx.handle('node.ls', listNodes(nodes));
  ctx.handle('node.use', useNode(nodes));
  ctx.setter('node', setNode(nodes));
  ctx.choices('node', async () => {
    const all = await nodes.lists();
    return [
      { title: ctx.t('list.user'), values: all.user_nodes.map((n) => n.name) },
      { title: ctx.t('list.group'), values: all.group_nodes.map((n) => n.name) },
      { title: ctx.t('list.system'), values: all.system_nodes.map((n) => n.name) },
    ];
  });
  ctx.handle('node.unuse', unuseNode(nodes));
  ctx.handle('node.reset', resetNode);
  ctx.handle('node.add', addNode(nodes));
  ctx.handle('node.del', deleteNode(nodes));
  ctx.handle('node.set.owner', setNodeOwner(nodes));
  ctx.handle('node.set', setNodeKey(nodes));
  ctx.handle('generate', generateWithNode(nodes));
}
