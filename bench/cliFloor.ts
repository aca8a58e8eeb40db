// The terminal's floor (issue 40): a process that reads the same /api/generate_sse stream the
// terminal client reads and writes each text delta to its terminal as it comes, nothing else.
// `node bench/cliFloor.ts <server> <session>`.
export {};
const [server, session] = process.argv.slice(2);
const res = await fetch(`${server}/api/generate_sse`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ session: Number(session), user_input: 'bench', mem_length: 0 }),
});
const decoder = new TextDecoder();
let buffer = '';
for await (const value of res.body!) {
  buffer += decoder.decode(value, { stream: true });
  for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
    const event = buffer.slice(0, at);
    buffer = buffer.slice(at + 2);
    if (event.startsWith('event: text')) process.stdout.write((JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { delta: string }).delta);
  }
}
process.stdout.write('\n');
