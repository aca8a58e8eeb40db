// get_time(timezone): the current time in an IANA time zone, formatted for en-US.
import { FunctionError, stringArg, type Builtin } from './shared.ts';
import { MESSAGES } from '../../common/messages.ts';

export const getTime: Builtin = async (args) => {
  const timezone = stringArg(args, 'timezone', false) || 'UTC';
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' });
  } catch {
    throw new FunctionError(MESSAGES.unknownZone(timezone));
  }
  const zone = format.resolvedOptions().timeZone;
  return { result: `The current time in ${zone} is ${format.format(new Date())}.` };
};
