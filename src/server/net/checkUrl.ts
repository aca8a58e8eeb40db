// Checks a user-supplied URL against the egress policy when it is saved (a model's or a
// node's base URL), so the mistake shows at once; every request is checked again on use.
import { EgressError, resolvePublicAddresses } from './egress.ts';

export async function checkUrlAllowed(raw: string, allowHosts: readonly string[]): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressError('The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EgressError('URL must start with http or https.');
  if (url.username || url.password) throw new EgressError('The URL must not contain a username or password.');
  const hostPort = url.port ? `${url.hostname}:${url.port}` : url.hostname;
  if (allowHosts.includes(hostPort) || allowHosts.includes(url.hostname)) return;
  await resolvePublicAddresses(url.hostname);
}
