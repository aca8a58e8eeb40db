// Outgoing mail over SMTP (nodemailer, SMTP_URL). Without SMTP_URL mail is disabled and the
// features that need it say so; the message body is never logged (it may carry a link).
import nodemailer from 'nodemailer';
import type { Mail } from '../core/index.ts';

export function createMail(smtpUrl: string, from: string): Mail {
  if (!smtpUrl) {
    return {
      enabled: false,
      send: async () => {
        throw new Error('E-mail is not configured on this server (SMTP_URL).');
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    enabled: true,
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}
