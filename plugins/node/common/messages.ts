// What the node plugin says, shared by its rules, its server and its commands so that each shows
// a message in the interface's language (src/core/messages.ts).
import { defineMessages } from '../../../src/core/messages.ts';
import { BASE_URL_MAX, MAX_USER_NODES, NODE_KINDS, NODE_NAME_MAX, NODE_SETTING_KEYS, TIMEOUT_MAX, TIMEOUT_MIN, VALUE_MAX } from './limits.ts';

export const MESSAGES = defineMessages(
  'node',
  {
    noneSet: 'No node is set...',
    notFound: 'Node not found.',
    notExists: 'Node not exists.',
    noneAvailable: 'No available node found.',
    noneSelected: 'No node selected.',
    invalidName: 'Invalid node name. A node name is 1 to {{nameMax}} letters, digits, underscores and hyphens.',
    unknownKey: 'Unknown key. Key must be one of: {{keys}}',
    invalidKind: 'Invalid kind. Valid kinds are: {{kinds}}.',
    invalidUrl: 'The URL is not valid.',
    urlScheme: 'URL must start with http or https.',
    urlTooLong: 'The URL is too long (at most {{urlMax}} characters).',
    valueTooLong: 'The value is too long (at most {{valueMax}} characters).',
    invalidTimeout: 'Invalid value. timeout_ms is a whole number from {{timeoutMin}} to {{timeoutMax}}.',
    notConfigured: 'The node has no base_url. Set one with :node set base_url "https://...".',
    tooMany: 'You can have at most {{nodesMax}} nodes. Please delete one first.',
    notOwner: 'Only the owner of a node can change it.',
    inputRequired: 'Input is required.',
    failed: 'The node did not answer: {{detail}}',
    exists: 'Node "{{name}}" already exists.',
    added: 'Node "{{name}}" added.',
    updated: 'Node "{{name}}" updated.',
    deleted: 'Node "{{name}}" deleted.',
    transferred: 'Node "{{name}}" now belongs to {{owner}}.',
    querying: 'Node AI querying, node: {{name}}...',
    processing: 'Node AI is still processing...',
    responded: 'Node AI responded.',
  },
  {
    nameMax: NODE_NAME_MAX,
    keys: NODE_SETTING_KEYS.join(', '),
    kinds: NODE_KINDS.join(', '),
    urlMax: BASE_URL_MAX,
    valueMax: VALUE_MAX,
    timeoutMin: TIMEOUT_MIN,
    timeoutMax: TIMEOUT_MAX,
    nodesMax: MAX_USER_NODES,
  },
);
