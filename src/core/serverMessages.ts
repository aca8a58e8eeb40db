// What the core server answers in words (accounts, requests, egress, generation), defined here
// rather than beside the code that answers it so that the browser knows them too and shows them
// in the interface's language (messages.ts; their translations are `err.*` of the `core`
// namespace, apart from the shell's own strings, which the first paint carries in English).
import { defineMessages } from './messages.ts';

export const SERVER_MESSAGES = defineMessages(
  'core',
  {
    // Requests
    pleaseLogin: 'Please login.',
    notJson: 'The request body must be JSON.',
    tooLarge: 'The request is too large.',
    failed: 'An error occurred during your request.',
    notFound: 'Resource not found.',
    crossOrigin: 'Cross-origin request refused.',
    // Accounts
    usernameRule: 'Username must start with a letter and hold at most {{usernameMax}} letters, digits, underscores or hyphens.',
    emailInvalid: 'Email is invalid.',
    passwordShort: 'Password must be at least {{passwordMin}} characters.',
    passwordLong: 'Password must be at most {{passwordMax}} characters.',
    usernameTaken: 'Username already exists.',
    invalidKey: 'Invalid key.',
    groupDenied: 'Group not found or wrong password.',
    alreadyInGroup: 'You are already in group {{group}}.',
    groupNotFound: 'Group not found.',
    ownGroup: 'You cannot leave your own group.',
    notInGroup: 'You are not in group {{group}}.',
    // Sessions and logs
    timeTraveler: 'Time traveler detected.',
    ownLogsOnly: 'You can only add logs to your own sessions.',
    sessionNotFound: 'Session not found.',
    // Generation (the status texts are the defaults of system info, which the operator may change)
    querying: 'Querying...',
    generating: 'Generating...',
    searching: 'Searching...',
    waiting: 'Waiting...',
    cutShort: 'The model provider ended the stream early.',
    stoppingKept: 'The server is restarting: the answer so far was saved. Send again to go on.',
    stopping: 'The server is restarting. Send again in a moment.',
    shuttingDown: 'The server is shutting down.',
    imageFailed: 'The image {{url}} could not be fetched (status {{status}}).',
    providerStatus: 'The model provider answered {{status}}.',
    providerStatusDetail: 'The model provider answered {{status}}: {{detail}}.',
    modelNotFound: 'Model not found.',
    noModel: 'No available model found.',
    noVision: 'The model {{model}} does not read images.',
    toolRounds: 'The model kept calling tools; stopped after {{rounds}} rounds.',
    errorOccurred: 'Error occurred.',
    // Egress (where a user's URL may not lead)
    noSuchHost: 'Could not resolve {{host}}: no such host.',
    dnsSilent: 'Could not resolve {{host}}: the name server did not answer.',
    unresolved: 'Could not resolve {{host}}.',
    unresolvedFamily: 'Could not resolve {{host}} for IPv{{family}}.',
    refusedVia: 'Refused to connect to {{address}} ({{reason}}) ({{host}} resolves to it).',
    refused: 'Refused to connect to {{host}} ({{reason}}).',
    invalidUrl: 'Invalid URL.',
    badScheme: 'Refused the {{scheme}}: URL scheme (only http and https are allowed).',
    credentials: 'Refused a URL with embedded credentials for {{host}}.',
    timedOut: 'Request to {{host}} timed out after {{ms}} ms.',
    redirect: 'Unexpected redirect from {{host}}.',
    redirects: 'Too many redirects (more than {{max}}).',
    resend: 'Cannot follow a redirect that needs a streamed request body sent again.',
    tooLargeDeclared: 'Response from {{host}} is too large ({{bytes}} bytes, limit {{max}}).',
    idle: 'No data from {{host}} for {{ms}} ms.',
    tooLargeRead: 'Response from {{host}} is larger than {{max}} bytes.',
  },
  { usernameMax: 32, passwordMin: 8, passwordMax: 64 },
);
