// The egress fetch tested end to end: real URL strings through the real URL parser, real sockets
// to real local servers (security research lesson 3: tests that skip the parser prove nothing).
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEgressFetch, EgressError, refusalReason } from './egress.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

// Each test sets the handlers it needs; two servers give two origins for cross-origin redirects.
let handlerA: Handler = (_req, res) => res.end('a');
let handlerB: Handler = (_req, res) => res.end('b');
const hits = { a: 0, b: 0 };
let a: http.Server;
let b: http.Server;
let originA: string;
let originB: string;
let hostA: string;
let hostB: string;

function listen(name: 'a' | 'b', handler: () => Handler): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    hits[name]++;
    handler()(req, res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  a = await listen('a', () => handlerA);
  b = await listen('b', () => handlerB);
  hostA = `127.0.0.1:${(a.address() as AddressInfo).port}`;
  hostB = `127.0.0.1:${(b.address() as AddressInfo).port}`;
  originA = `http://${hostA}`;
  originB = `http://${hostB}`;
});

afterEach(() => {
  handlerA = (_req, res) => res.end('a');
  handlerB = (_req, res) => res.end('b');
  hits.a = hits.b = 0;
  vi.restoreAllMocks();
});

afterAll(() => {
  for (const server of [a, b]) {
    server.closeAllConnections();
    server.close();
  }
});

function redirectTo(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}

async function refusal(promise: Promise<unknown>): Promise<EgressError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EgressError);
  return err as EgressError;
}

describe('destinations', () => {
  it('refuses loopback by default, before any byte reaches the server', async () => {
    const err = await refusal(createEgressFetch()(`${originA}/`));
    expect(err.message).toBe('Refused to connect to 127.0.0.1 (loopback address).');
    expect(hits.a).toBe(0);
  });

  it('allows a host:port an operator listed, and only that port', async () => {
    const egress = createEgressFetch({ allowHosts: [hostA] });
    const res = await egress(`${originA}/`);
    expect(await res.text()).toBe('a');
    await refusal(egress(`${originB}/`));
    expect(hits.b).toBe(0);
  });

  it('allows a bare host entry on any port', async () => {
    const res = await createEgressFetch({ allowHosts: ['127.0.0.1'] })(`${originB}/`);
    expect(await res.text()).toBe('b');
  });

  it('refuses a host name that resolves to a private address (localhost)', async () => {
    const port = (a.address() as AddressInfo).port;
    const err = await refusal(createEgressFetch()(`http://localhost:${port}/`));
    // What the name resolves to is not said (issue 34): the server's resolver is not an oracle.
    expect(err.message).toBe('Refused to connect to localhost: it does not resolve to a public address.');
    expect(hits.a).toBe(0);
  });

  it('refuses when any one of several DNS answers is private, and AAAA-only private answers', async () => {
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async (name: string) =>
      name === 'mixed.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : [{ address: 'fd00::1', family: 6 }]) as unknown as typeof dns.promises.lookup);
    const egress = createEgressFetch();
    expect((await refusal(egress('https://mixed.example/'))).message).toBe('Refused to connect to mixed.example: it does not resolve to a public address.');
    const v6 = (await refusal(egress('https://v6only.example/'))).message;
    expect(v6).toBe('Refused to connect to v6only.example: it does not resolve to a public address.');
    expect(v6).not.toContain('fd00');
  });

  it('says in words when a host name does not resolve', async () => {
    const failing = (code: string) => Object.assign(new Error(`getaddrinfo ${code} nowhere.example`), { code });
    vi.spyOn(dns.promises, 'lookup')
      .mockRejectedValueOnce(failing('ENOTFOUND'))
      .mockRejectedValueOnce(failing('EAI_AGAIN'));
    const egress = createEgressFetch();
    expect((await refusal(egress('https://nowhere.example/'))).message).toBe('Could not resolve nowhere.example: no such host.');
    expect((await refusal(egress('https://nowhere.example/'))).message).toBe('Could not resolve nowhere.example: the name server did not answer.');
  });

  it('connects to the address it checked: a rebinding second answer is never asked for', async () => {
    // A rebinding name answers public first, loopback after. The check and the connect share one
    // lookup, so the loopback answer is never used and the local server sees nothing.
    const answers = ['93.184.216.34', '127.0.0.1'];
    const lookup = vi
      .spyOn(dns.promises, 'lookup')
      .mockImplementation((async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }]) as unknown as typeof dns.promises.lookup);
    const port = (a.address() as AddressInfo).port;
    await expect(createEgressFetch({ timeoutMs: 500 })(`http://rebind.example:${port}/`)).rejects.toThrow();
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(hits.a).toBe(0);
  });

  it.each([
    ['http://[::1]/', '::1 (loopback address)'],
    ['http://0x7f.1/', '127.0.0.1 (loopback address)'],
    ['http://2130706433/', '127.0.0.1 (loopback address)'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 (cloud metadata address)'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe (IPv4-mapped cloud metadata address)'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1 (IPv4-mapped loopback address)'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe (NAT64 cloud metadata address)'],
    ['http://[2002:a9fe:a9fe::]/', '2002:a9fe:a9fe:: (6to4 cloud metadata address)'],
    ['http://[::]/', ':: (unspecified address)'],
    ['http://[fe80::1]/', 'fe80::1 (link-local address)'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254 (private address)'],
    ['http://0.0.0.0:8080/', '0.0.0.0 (unspecified address)'],
    ['http://10.0.0.5/', '10.0.0.5 (private address)'],
    ['http://172.16.1.1/', '172.16.1.1 (private address)'],
    ['http://192.168.1.1/', '192.168.1.1 (private address)'],
    ['http://100.100.100.200/', '100.100.100.200 (carrier-grade NAT address)'],
    ['http://224.0.0.1/', '224.0.0.1 (multicast address)'],
    ['http://255.255.255.255/', '255.255.255.255 (reserved address)'],
    ['http://ok@127.0.0.1/', 'embedded credentials'],
    ['http://127.0.0.1#@example.com/', '127.0.0.1 (loopback address)'],
    ['http://127.0.0.1\\@example.com/', '127.0.0.1 (loopback address)'],
    ['http://①②⑦.⓪.⓪.①/', '127.0.0.1 (loopback address)'],
  ])('refuses %s', async (url, expected) => {
    const err = await refusal(createEgressFetch({ timeoutMs: 2_000 })(url));
    expect(err.message).toContain(expected);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'javascript:alert(1)', 'gopher://example.com/', 'ws://example.com/'])(
    'refuses the scheme of %s',
    async (url) => {
      const err = await refusal(createEgressFetch()(url));
      expect(err.message).toMatch(/^Refused the [a-z]+: URL scheme \(only http and https are allowed\)\.$/);
    },
  );

  it('never repeats URL credentials in its errors', async () => {
    const err = await refusal(createEgressFetch()('http://user:hunter2@10.0.0.5/'));
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain('user');
  });

  it('classifies public addresses as allowed', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(refusalReason(address), address).toBeNull();
    }
    for (const address of ['::127.0.0.1', '2001::1', '2001:db8::1', 'fec0::1', 'ff02::1', '198.18.0.1', '192.0.0.170']) {
      expect(refusalReason(address), address).not.toBeNull();
    }
  });
});

describe('redirects', () => {
  it('refuses a redirect from an allowed host to a refused one', async () => {
    handlerA = redirectTo(`${originB}/secret`);
    const err = await refusal(createEgressFetch({ allowHosts: [hostA] })(`${originA}/`));
    expect(err.message).toContain('127.0.0.1 (loopback address)');
    expect(hits).toEqual({ a: 1, b: 0 });
  });

  it('refuses a redirect to a name resolving to loopback and to a non-http scheme', async () => {
    const egress = createEgressFetch({ allowHosts: [hostA] });
    handlerA = redirectTo(`http://localhost:${(a.address() as AddressInfo).port}/`);
    expect((await refusal(egress(`${originA}/`))).message).toBe('Refused to connect to localhost: it does not resolve to a public address.');
    handlerA = redirectTo('file:///etc/passwd');
    expect((await refusal(egress(`${originA}/`))).message).toContain('file: URL scheme');
  });

  it('follows up to maxRedirects hops and fails beyond', async () => {
    handlerA = (req, res) => {
      const n = Number(new URL(req.url!, originA).searchParams.get('n'));
      if (n === 0) return res.end('arrived');
      res.writeHead(301, { location: `/?n=${n - 1}` });
      res.end();
    };
    const egress = createEgressFetch({ allowHosts: [hostA], maxRedirects: 3 });
    const res = await egress(`${originA}/?n=3`);
    expect(await res.text()).toBe('arrived');
    expect(res.redirected).toBe(true);
    expect(res.url).toBe(`${originA}/?n=0`);
    const err = await refusal(egress(`${originA}/?n=4`));
    expect(err.message).toBe('Too many redirects (more than 3).');
  });

  it('drops Authorization and other caller headers on a cross-origin redirect, keeps them on the same origin', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    handlerA = (req, res) => {
      seen.push(req.headers);
      if (req.url === '/start') return redirectTo('/same', 307)(req, res);
      redirectTo(`${originB}/other`, 307)(req, res);
    };
    handlerB = (req, res) => {
      seen.push(req.headers);
      res.end('b');
    };
    const egress = createEgressFetch({ allowHosts: [hostA, hostB] });
    const res = await egress(`${originA}/start`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer sk-user-key', 'x-api-key': 'sk-user-key', 'content-type': 'application/json' },
    });
    expect(await res.text()).toBe('b');
    expect(seen).toHaveLength(3);
    expect(seen[1]!.authorization).toBe('Bearer sk-user-key'); // same origin
    expect(seen[2]!.authorization).toBeUndefined();
    expect(seen[2]!['x-api-key']).toBeUndefined();
    expect(seen[2]!['content-type']).toBe('application/json'); // 307 resends the body
  });

  it('returns the redirect itself when the caller asks for redirect: manual', async () => {
    handlerA = redirectTo(`${originB}/`);
    const res = await createEgressFetch({ allowHosts: [hostA] })(`${originA}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(hits.b).toBe(0);
  });
});

describe('limits', () => {
  it('fails an oversize body, whether declared or streamed', async () => {
    const egress = createEgressFetch({ allowHosts: [hostA], maxResponseBytes: 1000 });
    handlerA = (_req, res) => res.end('x'.repeat(1001));
    expect((await refusal(egress(`${originA}/`))).message).toContain('too large (1001 bytes, limit 1000)');

    handlerA = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no content-length to trust
      res.write('x'.repeat(600));
      setTimeout(() => res.end('x'.repeat(600)), 20);
    };
    const res = await egress(`${originA}/`);
    expect((await refusal(res.text())).message).toBe('Response from ' + hostA + ' is larger than 1000 bytes.');
  });

  it('accepts a body of exactly the limit', async () => {
    handlerA = (_req, res) => res.end('x'.repeat(1000));
    const res = await createEgressFetch({ allowHosts: [hostA], maxResponseBytes: 1000 })(`${originA}/`);
    expect((await res.text()).length).toBe(1000);
  });

  it('times out a server that never answers', async () => {
    handlerA = () => {}; // never responds
    const started = Date.now();
    const err = await refusal(createEgressFetch({ allowHosts: [hostA], timeoutMs: 200 })(`${originA}/`));
    expect(err.message).toBe(`Request to ${hostA} timed out after 200 ms.`);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('applies the total timeout to a non-streaming body', async () => {
    handlerA = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    };
    const res = await createEgressFetch({ allowHosts: [hostA], timeoutMs: 200 })(`${originA}/`);
    expect((await refusal(res.text())).message).toContain('timed out after 200 ms');
  });

  it('applies the idle timeout between chunks of a streaming body', async () => {
    handlerA = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    };
    const res = await createEgressFetch({ allowHosts: [hostA], timeoutMs: 100, idleTimeoutMs: 300 })(`${originA}/`);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    expect((await refusal(reader.read())).message).toBe(`No data from ${hostA} for 300 ms.`);
  });

  it('still cancels when the caller aborts', async () => {
    handlerA = () => {};
    const caller = new AbortController();
    const pending = createEgressFetch({ allowHosts: [hostA] })(`${originA}/`, { signal: caller.signal });
    setTimeout(() => caller.abort(new Error('user pressed stop')), 50);
    await expect(pending).rejects.toThrow('user pressed stop');
  });
});

describe('streaming', () => {
  it('hands each chunk over as it arrives, longer than the total timeout', async () => {
    let sendNext!: (text: string | null) => void;
    handlerA = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sendNext = (text) => (text === null ? res.end() : res.write(text));
      sendNext('data: first\n\n');
    };
    const res = await createEgressFetch({ allowHosts: [hostA], timeoutMs: 150 })(`${originA}/`);
    const reader = res.body!.getReader();
    const decode = (chunk: ReadableStreamReadResult<Uint8Array>) => new TextDecoder().decode(chunk.value);
    // The server writes the next chunk only after the previous one was read here.
    expect(decode(await reader.read())).toBe('data: first\n\n');
    await new Promise((r) => setTimeout(r, 250)); // past timeoutMs: streams only have the idle timeout
    sendNext('data: second\n\n');
    expect(decode(await reader.read())).toBe('data: second\n\n');
    sendNext(null);
    expect((await reader.read()).done).toBe(true);
  });
});
