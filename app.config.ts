// Operator composition (DESIGN.md §2): the built-in plugins this build ships. A plugin left
// out here is absent from the bundle and its commands answer 'Unknown command.'.
// SHELLCHAT_APP_CONFIG may point at another file with the same shape (used by tests).
export interface AppConfig {
  plugins: string[];
}

const config: AppConfig = {
  plugins: ['general', 'stats', 'speak', 'info', 'user', 'session', 'search', 'archive', 'model', 'function', 'role', 'node', 'store', 'subscription', 'cli', 'web', 'key', 'sso', 'audit', 'metrics'],
};

export default config;
