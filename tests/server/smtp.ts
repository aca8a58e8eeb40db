// An in-process SMTP server (smtp-server) that collects what shellchat sends, and helpers to
// read the messages: quoted-printable bodies, encoded subjects, links, the signed unsubscribe footer.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

export interface Received {
  /** The envelope recipients. */
  to: string[];
  /** The To and Content-Type headers, checked by the tests. */
  toHeader: string;
  contentType: string;
  subject: string;
  text: string;
}

/** Quoted-printable (read as latin1) to text: soft line breaks go, =XX become bytes, UTF-8. */
export function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) of a header, as nodemailer writes non-ASCII subjects. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** Enough of RFC 5322 for a single-part text mail from nodemailer: To, Subject, decoded body. */
export function parseMessage(raw: string, rcptTo: string[]): Received {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const decoded =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : Buffer.from(body, 'latin1').toString('utf8');
  const text = decoded.replace(/\r\n/g, '\n');
  return { to: rcptTo, toHeader: header('To'), contentType: header('Content-Type'), subject: decodeHeader(header('Subject')), text };
}

export async function startSmtp() {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push(parseMessage(Buffer.concat(chunks).toString('latin1'), session.envelope.rcptTo.map((r) => r.address)));
        done();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    const listener = smtp.listen(0, '127.0.0.1', () => resolve((listener.address() as AddressInfo).port));
  });
  return { inbox, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** Every mail ends with a signed unsubscribe link for its recipient; returns that link. */
export function footerLink(mail: Received, base: string): string {
  expect(mail.contentType).toMatch(/^text\/plain/);
  expect(mail.toHeader).toContain(mail.to[0]);
  const match = mail.text.trimEnd().match(/\n-- \n.*\n(\S+\/api\/user\/update\/email-subscription\?\S+)$/);
  expect(match, `unsubscribe footer at the end of "${mail.subject}"`).toBeTruthy();
  const link = new URL(match![1]!);
  expect(link.origin).toBe(base);
  expect(link.searchParams.get('email')).toBe(mail.to[0]);
  expect(link.searchParams.get('email_subscription')).toBe('0');
  expect(link.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(match![1]).toContain(`email=${encodeURIComponent(mail.to[0]!)}&`);
  return link.toString();
}

/** The one link in a mail's body (before the footer) that goes to the given API path. */
export function linkTo(mail: Received, path: string): string {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  const found = links.filter((l) => new URL(l).pathname === path);
  expect(found).toHaveLength(1);
  return found[0]!;
}
