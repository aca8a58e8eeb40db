// GET /api/system/info (spec part 3): what the browser may know about this server. Built
// from configuration only; nothing secret (keys, passwords) ever goes in here.
import type { SystemInfo } from '../core/index.ts';
import type { ServerConfig } from './config.ts';

export function systemInfo(config: ServerConfig, enabled: string[] = []): SystemInfo {
  return {
    model: config.systemModels[0]?.name ?? config.model,
    base_url: config.systemModels[0]?.baseUrl ?? config.openaiBaseUrl,
    role_content_system: config.roleContentSystem,
    welcome_message: config.welcomeMessage,
    querying: String(config.texts.querying),
    generating: String(config.texts.generating),
    searching: String(config.texts.searching),
    waiting: String(config.texts.waiting),
    init_placeholder: config.initPlaceholder,
    enter: config.enter,
    temperature: config.temperature,
    top_p: config.topP,
    use_node_ai: config.useNodeAi,
    minimalist: config.minimalist,
    default_functions: config.defaultFunctions,
    default_role: config.defaultRole,
    default_stores: config.defaultStores,
    default_node: config.defaultNode,
    use_payment: config.usePayment,
    use_subscriptions: config.useSubscriptions,
    contact_email: config.contactEmail,
    mcp_url: config.mcpHelperUrl,
    ...(config.ollamaBaseUrl ? { ollama_url: config.ollamaBaseUrl } : {}),
    use_email: !!config.smtpUrl,
    plugins: { enabled, disabled: config.disabledPlugins, remotes: config.remotes },
    demo: config.demo,
  };
}
