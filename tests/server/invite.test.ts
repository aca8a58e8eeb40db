// Invitations: GET /api/invite/{email} mails an invitation; when the address signs up, the
// inviter and the new user each get INVITE_REWARD of balance, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../src/core/index.ts';
import { startSmtp } from './smtp.ts';
import { failure, startTestServer, type TestServer } from './support.ts';

describe('invitations', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestServer('sqlite', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, INVITE_REWARD: '2.5' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails an invitation and rewards both parties once at sign-up', async () => {
    const inviter = t.client();
    await inviter.post('/api/user/add', { username: 'nora', email: 'nora@example.org', password: 'correct-horse-1' });
    await inviter.post('/api/user/login', { username: 'nora', password: 'correct-horse-1' });
    expect((await failure(t.client().get('/api/invite/otto%40example.org'))).status).toBe(401);
    expect((await inviter.get('/api/invite/Otto%40Example.org')).message).toBe('Invitation sent to otto@example.org.');
    const mail = smtp.inbox.at(-1)!;
    expect(mail.to).toEqual(['otto@example.org']);
    expect(mail.subject).toBe('nora invites you to shellchat');
    expect(mail.text).toContain(':user add <username> otto@example.org');
    expect(await failure(inviter.get('/api/invite/otto%40example.org'))).toEqual({ status: 409, error: 'You already invited otto@example.org today.' });
    expect(await failure(inviter.get('/api/invite/nora%40example.org'))).toEqual({ status: 409, error: 'This address already has an account.' });
    expect(await failure(inviter.get('/api/invite/not-an-address'))).toEqual({ status: 400, error: 'Email is invalid.' });
    const fromElsewhere = await inviter.raw(`${t.url}/api/invite/paul%40example.org`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(fromElsewhere.status).toBe(403);

    const invitee = t.client();
    await invitee.post('/api/user/add', { username: 'otto', email: 'otto@example.org', password: 'correct-horse-1' });
    await invitee.post('/api/user/login', { username: 'otto', password: 'correct-horse-1' });
    expect((await invitee.get<PublicUser>('/api/user/info')).result!.balance).toBe(2.5);
    expect((await inviter.get<PublicUser>('/api/user/info')).result!.balance).toBe(2.5);
  });
});
