// What main.ts checks at start beyond the values themselves (env.ts): a DATA_DIR that cannot be
// written stops the start; what the server can run without (the built page, the mail server)
// is one warning each in the log.
import { existsSync, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from './config.ts';
import { causeOf, StartError } from './startError.ts';

/** DATA_DIR, when this start writes there (the SQLite database, or the secret key made once). */
export function checkDataDir(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'secretKey'>): void {
  const dir = config.dataDir;
  const writes = !config.databaseUrl || (!config.secretKey && !existsSync(path.join(dir, 'secret.key')));
  if (!writes) return;
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new StartError(`DATA_DIR ${dir} is not a directory`);
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (err) {
    throw new StartError(`DATA_DIR ${dir} cannot be written: ${causeOf(err)}`);
  }
}

/** How long the mail server may take to answer; the start waits for it, not longer. */
const SMTP_CHECK_MS = 5_000;

/** Whether the mail server answers (connects, greets, accepts the login); what is wrong if not. */
async function smtpProblem(smtpUrl: string): Promise<string | undefined> {
  const url = URL.parse(smtpUrl);
  const where = `${url?.hostname}:${url?.port || (url?.protocol === 'smtps:' ? 465 : 587)}`;
  const { default: nodemailer } = await import('nodemailer');
  let transport: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: SMTP_CHECK_MS, greetingTimeout: SMTP_CHECK_MS, socketTimeout: SMTP_CHECK_MS });
    await transport.verify();
    return undefined;
  } catch (err) {
    return `SMTP_URL: the mail server at ${where} does not answer (${causeOf(err)}): e-mails (password reset, address verification) fail until it does`;
  } finally {
    transport?.close();
  }
}

/**
 * The warnings of a start that can go on, one line each (main.ts logs them before the start
 * line). Started at once, so that the mail server is asked while the database migrates.
 */
export async function startWarnings(config: Pick<ServerConfig, 'distDir' | 'smtpUrl'>): Promise<string[]> {
  const warnings: string[] = [];
  if (!existsSync(path.join(config.distDir, 'index.html'))) {
    warnings.push(`SHELLCHAT_DIST ${config.distDir} holds no built app: the API is served, the page is not (npm start builds it)`);
  }
  const smtp = config.smtpUrl ? await smtpProblem(config.smtpUrl) : undefined;
  if (smtp) warnings.push(smtp);
  return warnings;
}
