// redirect_to_url(url, blank): the browser opens the URL (a new tab by default). The server
// only checks the scheme; it never fetches the URL.
import { FunctionError, stringArg, type Builtin } from './shared.ts';
import { MESSAGES } from '../../common/messages.ts';

export const redirectToUrl: Builtin = async (args) => {
  const raw = stringArg(args, 'url');
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new FunctionError(MESSAGES.urlScheme);
  const blank = args.blank === undefined || args.blank === null ? true : args.blank === true || args.blank === 'true';
  return { result: `Redirecting to ${url.href}${blank ? ' in a new tab' : ''}.`, event: { name: 'redirect', parameters: { url: url.href, blank } } };
};
