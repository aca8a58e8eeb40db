// The local model server (Ollama) for the model commands: its URL comes from system info
// (`ollama_url`, OLLAMA_BASE_URL on the server) or is http://localhost:11434. The health check
// (100 ms, exactly 'Ollama is running') and the list (GET /v1/models) are the core's, shared
// with the browser chat that calls a local model directly.
import { isOllamaUrl, ollamaHealthy, ollamaModels, ollamaUrl, type Platform } from '../../../src/core/index.ts';
import type { LocalModels } from '../common/index.ts';

export function ollama(platform: Platform | undefined, fetchImpl?: typeof fetch): LocalModels {
  const baseUrl = () => ollamaUrl(platform?.systemInfo());
  const options = fetchImpl ? { fetch: fetchImpl } : {};
  return {
    baseUrl,
    healthy: () => ollamaHealthy(baseUrl(), options),
    list: () => ollamaModels(baseUrl(), options),
    isLocal: (url) => isOllamaUrl(url, baseUrl()),
  };
}
