import { Unzip, UnzipInflate } from 'fflate';
import { readFileSync } from 'node:fs';
const all = readFileSync(process.argv[2]!);
const u = new Unzip(); u.register(UnzipInflate);
u.onfile = (f) => { let got = 0; console.log('file', f.name, f.compression, f.size); f.ondata = (e, d, fin) => { if (e) console.log('ERR', e.message); else got += d.length; if (fin) console.log('done', f.name, got); }; f.start(); };
try { for (let i = 0; i < all.length; i += 4096) u.push(all.subarray(i, i + 4096)); u.push(new Uint8Array(0), true); } catch (e) { console.log('THROW', (e as Error).message); }
